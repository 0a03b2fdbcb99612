// The platforms this gateway has an adapter for, by id: the API's Platform enum, which graphql/
// builds statically (`npm run schema`) without knowing adapters/. The composition root registers
// one adapter per name (app/platforms.ts); test/unit/adapterEntry.test.ts keeps the two equal.
import type { Platform } from './model.js';

/** Typed as any Platform (a string), so the API's fields keep carrying the record's platform. */
export const PLATFORM_NAMES: readonly Platform[] = ['telegram', 'discord', 'web'];
