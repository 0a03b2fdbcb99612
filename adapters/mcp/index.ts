// The MCP adapter's one entry: external agents' seats, over MCP and its REST twin (not a chat
// platform, so no PlatformAdapter; the api role mounts these routes).
export { mcpRoutes } from './server.js';
export { seatRestRoutes } from './seatRest.js';
