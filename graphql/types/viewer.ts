// Who is asking: the operator behind the bearer token and the time zone the deployment shows
// times in. The console reads it once at sign-in to hide the controls the role may not use
// (the API refuses them anyway) and to format timestamps.
import { builder } from '../builder.js';
import { OPS_ROLES, type OpsRole } from '../../src/config/env.js';

const OpsRoleEnum = builder.enumType('OpsRole', {
  description: 'viewer < operator < admin: viewers read, operators act, admins change the config.',
  values: OPS_ROLES,
});

interface ViewerInfo {
  name: string;
  role: OpsRole;
  timezone: string;
}

const ViewerType = builder.objectRef<ViewerInfo>('Viewer').implement({
  description: 'The operator behind the bearer token (never the token itself).',
  fields: (t) => ({
    name: t.exposeString('name'),
    role: t.field({ type: OpsRoleEnum, resolve: (v) => v.role }),
    timezone: t.exposeString('timezone', { description: 'IANA time zone of user-facing times (DISPLAY_TIMEZONE).' }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerType,
    resolve: (_r, _a, ctx) => ({ name: ctx.viewer.name, role: ctx.viewer.role, timezone: ctx.ops.timezone }),
  }),
}));
