// Weather through an HTTP provider with Open-Meteo's API shape (geocoding, then forecast).
// The base URLs are configuration, so a mirror — or a local test server — can stand in.
import { z } from 'zod';
import { defineTool } from '../registry.js';

const geocodingResponse = z.object({
  results: z
    .array(
      z.object({
        name: z.string(),
        latitude: z.number(),
        longitude: z.number(),
        country: z.string().optional(),
        timezone: z.string().optional(),
      }),
    )
    .optional(),
});

const forecastResponse = z.object({
  current: z.object({
    time: z.string(),
    temperature_2m: z.number(),
    relative_humidity_2m: z.number().optional(),
    wind_speed_10m: z.number().optional(),
    weather_code: z.number().int(),
  }),
  current_units: z.record(z.string(), z.string()).optional(),
});

/** WMO weather interpretation codes, as Open-Meteo documents them. */
const WMO: Record<number, string> = {
  0: 'clear sky',
  1: 'mainly clear',
  2: 'partly cloudy',
  3: 'overcast',
  45: 'fog',
  48: 'depositing rime fog',
  51: 'light drizzle',
  53: 'drizzle',
  55: 'dense drizzle',
  56: 'freezing drizzle',
  57: 'dense freezing drizzle',
  61: 'slight rain',
  63: 'rain',
  65: 'heavy rain',
  66: 'freezing rain',
  67: 'heavy freezing rain',
  71: 'slight snow',
  73: 'snow',
  75: 'heavy snow',
  77: 'snow grains',
  80: 'rain showers',
  81: 'heavy rain showers',
  82: 'violent rain showers',
  85: 'snow showers',
  86: 'heavy snow showers',
  95: 'thunderstorm',
  96: 'thunderstorm with hail',
  99: 'thunderstorm with heavy hail',
};

async function getJson(url: URL, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`weather provider answered HTTP ${res.status}`);
  return res.json();
}

export function weatherTool(provider: { geocodingUrl: string; forecastUrl: string }) {
  return defineTool({
    name: 'get_weather',
    description: 'Current weather for a place (city name, in any language).',
    parameters: z.object({ location: z.string().trim().min(1).max(100) }),
    run: async ({ location }, ctx) => {
      const geoUrl = new URL('/v1/search', provider.geocodingUrl);
      geoUrl.search = new URLSearchParams({ name: location, count: '1', format: 'json' }).toString();
      const geo = geocodingResponse.parse(await getJson(geoUrl, ctx.signal));
      const place = geo.results?.[0];
      if (!place) return { found: false, location };

      const fcUrl = new URL('/v1/forecast', provider.forecastUrl);
      fcUrl.search = new URLSearchParams({
        latitude: String(place.latitude),
        longitude: String(place.longitude),
        current: 'temperature_2m,relative_humidity_2m,weather_code,wind_speed_10m',
        timezone: 'auto',
      }).toString();
      const fc = forecastResponse.parse(await getJson(fcUrl, ctx.signal));
      const c = fc.current;
      return {
        found: true,
        place: [place.name, place.country].filter(Boolean).join(', '),
        observedAt: c.time,
        temperatureC: c.temperature_2m,
        humidityPercent: c.relative_humidity_2m ?? null,
        windKmh: c.wind_speed_10m ?? null,
        conditions: WMO[c.weather_code] ?? `weather code ${c.weather_code}`,
      };
    },
  });
}
