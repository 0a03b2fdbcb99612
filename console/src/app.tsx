// The console shell: signs the operator in (or back in from the stored token), then routes to a
// page inside the layout. A token the API stops accepting (401) sends the operator back to
// sign-in; a gateway that does not answer is retried with backoff under the reconnecting banner.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, gql } from './lib/api.js';
import { backoffMs } from './lib/net.js';
import { getToken, onSessionEnd, onTokenInUrl, VIEWER_QUERY, type Viewer } from './lib/session.js';
import { ViewerContext } from './lib/viewerContext.js';
import { useI18n } from './lib/i18n.js';
import { setDisplayTimezone } from './lib/time.js';
import { navigate, useLocation } from './lib/router.js';
import { Layout } from './components/Layout.js';
import { ErrorBox, Loading } from './components/ui.js';
import { ReconnectBanner } from './components/ReconnectBanner.js';
import { SignIn } from './pages/SignIn.js';
import { routeFor } from './routes.js';

type Auth =
  { state: 'checking' } | { state: 'out'; reason?: 'rejected' | 'signed-out' } | { state: 'in'; viewer: Viewer };

export function App() {
  const [auth, setAuth] = useState<Auth>(() => (getToken() ? { state: 'checking' } : { state: 'out' }));
  const [checkError, setCheckError] = useState<unknown>();
  const loc = useLocation();
  // Read here so a language switch re-renders the whole tree (pages format dates with plain functions).
  useI18n();

  useEffect(() => onSessionEnd((reason) => setAuth({ state: 'out', reason })), []);
  // A `#token=` link pasted into an open tab: check the new token at once.
  useEffect(() => onTokenInUrl(() => setAuth({ state: 'checking' })), []);
  useEffect(() => {
    if (auth.state !== 'checking') return;
    let stopped = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () =>
      gql(VIEWER_QUERY)
        .then(({ viewer }) => {
          if (!stopped) signedIn(viewer);
        })
        .catch((e: unknown) => {
          // A 401 has already ended the session (gql); anything else is retried, token kept.
          if (stopped || (e instanceof ApiError && e.status === 401)) return;
          setCheckError(e);
          timer = setTimeout(() => void check(), backoffMs(++failures));
        });
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [auth]);

  const signedIn = (viewer: Viewer) => {
    setCheckError(undefined);
    setDisplayTimezone(viewer.timezone);
    setAuth({ state: 'in', viewer });
    if (loc.path === '/signin' || loc.path === '/') navigate('/home', { replace: true });
  };

  return (
    <>
      <ReconnectBanner />
      {auth.state === 'checking' ? (
        <>
          <Loading what="the console" />
          <ErrorBox error={checkError} />
        </>
      ) : auth.state === 'out' ? (
        <SignIn reason={auth.reason} onSignedIn={signedIn} />
      ) : (
        <SignedIn viewer={auth.viewer} loc={loc} />
      )}
    </>
  );
}

function SignedIn(p: { viewer: Viewer; loc: ReturnType<typeof useLocation> }) {
  const route = routeFor(p.loc.path);
  return (
    <ViewerContext.Provider value={p.viewer}>
      <Layout viewer={p.viewer} section={route.section}>
        {route.render(p.loc)}
      </Layout>
    </ViewerContext.Provider>
  );
}
