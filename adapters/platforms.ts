// Every platform adapter of this gateway, registered by the composition root (app/shared.ts)
// and named by the API's Platform enum. A new adapter package adds its descriptor here.
import type { PlatformDescriptor } from '../src/platforms/platform.js';
import { telegramPlatform } from './telegram/platform.js';
import { discordPlatform } from './discord/platform.js';
import { webPlatform } from './web/platform.js';

export const PLATFORMS: readonly PlatformDescriptor[] = [telegramPlatform, discordPlatform, webPlatform];
