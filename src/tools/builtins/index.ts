import type { Env } from '../../config/env.js';
import { ToolRegistry } from '../registry.js';
import { currentTimeTool } from './currentTime.js';
import { searchMessagesTool } from './searchMessages.js';
import { weatherTool } from './weather.js';

export function builtinTools(
  env: Pick<Env, 'TOOL_TIMEOUT_MS' | 'WEATHER_GEOCODING_URL' | 'WEATHER_FORECAST_URL'>,
): ToolRegistry {
  return new ToolRegistry(
    [
      currentTimeTool,
      searchMessagesTool,
      weatherTool({ geocodingUrl: env.WEATHER_GEOCODING_URL, forecastUrl: env.WEATHER_FORECAST_URL }),
    ],
    env.TOOL_TIMEOUT_MS,
  );
}
