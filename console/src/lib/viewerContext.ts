// The signed-in operator, for any component that shows or hides controls by role.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { roleAtLeast, type OpsRole, type Viewer } from './session.js';

export const ViewerContext = createContext<Viewer>({ name: '', role: 'viewer', timezone: 'UTC' });

export const useViewer = (): Viewer => useContext(ViewerContext);

/** Whether the signed-in role may use controls that need `role` (the API checks again). */
export const useCan = (role: OpsRole): boolean => roleAtLeast(useContext(ViewerContext).role, role);
