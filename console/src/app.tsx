// The console shell: signs the operator in (or back in from the stored token), then routes to a
// page inside the layout. A token the API stops accepting sends the operator back to sign-in.
import { useEffect, useState } from 'preact/hooks';
import { gql } from './lib/api.js';
import { endSession, getToken, onSessionEnd, type Viewer } from './lib/session.js';
import { ViewerContext } from './lib/viewerContext.js';
import { setDisplayTimezone } from './lib/time.js';
import { navigate, useLocation } from './lib/router.js';
import { Layout } from './components/Layout.js';
import { Loading } from './components/ui.js';
import { SignIn, VIEWER_QUERY } from './pages/SignIn.js';
import { routeFor } from './routes.js';

type Auth =
  { state: 'checking' } | { state: 'out'; reason?: 'rejected' | 'signed-out' } | { state: 'in'; viewer: Viewer };

export function App() {
  const [auth, setAuth] = useState<Auth>(() => (getToken() ? { state: 'checking' } : { state: 'out' }));
  const loc = useLocation();

  useEffect(() => onSessionEnd((reason) => setAuth({ state: 'out', reason })), []);
  useEffect(() => {
    if (auth.state !== 'checking') return;
    gql<{ viewer: Viewer }>(VIEWER_QUERY)
      .then(({ viewer }) => signedIn(viewer))
      .catch(() => endSession('rejected'));
  }, [auth.state]);

  const signedIn = (viewer: Viewer) => {
    setDisplayTimezone(viewer.timezone);
    setAuth({ state: 'in', viewer });
    if (loc.path === '/signin' || loc.path === '/') navigate('/dialogues', { replace: true });
  };

  if (auth.state === 'checking') return <Loading what="the console" />;
  if (auth.state === 'out') return <SignIn reason={auth.reason} onSignedIn={signedIn} />;
  const route = routeFor(loc.path);
  return (
    <ViewerContext.Provider value={auth.viewer}>
      <Layout viewer={auth.viewer} section={route.section}>
        {route.render(loc)}
      </Layout>
    </ViewerContext.Provider>
  );
}
