// A local stand-in for Open-Meteo's geocoding and forecast APIs (same paths, same JSON), so
// the weather tool's real HTTP code runs in tests. `hang` makes every request hang.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeWeather {
  url: string;
  requests: string[];
  hang: boolean;
  close(): Promise<void>;
}

const PLACES: Record<
  string,
  { name: string; country: string; latitude: number; longitude: number; timezone: string; temp: number; code: number }
> = {
  paris: {
    name: 'Paris',
    country: 'France',
    latitude: 48.85341,
    longitude: 2.3488,
    timezone: 'Europe/Paris',
    temp: 18.4,
    code: 2,
  },
  北京: {
    name: '北京市',
    country: '中国',
    latitude: 39.9075,
    longitude: 116.39723,
    timezone: 'Asia/Shanghai',
    temp: 3.1,
    code: 0,
  },
};

export async function startFakeWeather(): Promise<FakeWeather> {
  const pending = new Set<ServerResponse>();
  const state: FakeWeather = { url: '', requests: [], hang: false, close: () => Promise.resolve() };
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    state.requests.push(`${u.pathname}${u.search}`);
    if (state.hang) {
      pending.add(res);
      return;
    }
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
    if (u.pathname === '/v1/search') {
      const p = PLACES[(u.searchParams.get('name') ?? '').toLowerCase()];
      json(
        200,
        p
          ? {
              results: [
                {
                  id: 1,
                  name: p.name,
                  latitude: p.latitude,
                  longitude: p.longitude,
                  country: p.country,
                  timezone: p.timezone,
                },
              ],
              generationtime_ms: 0.5,
            }
          : { generationtime_ms: 0.4 },
      );
      return;
    }
    if (u.pathname === '/v1/forecast') {
      const lat = Number(u.searchParams.get('latitude'));
      const p = Object.values(PLACES).find((x) => Math.abs(x.latitude - lat) < 1e-6);
      if (!p) return json(400, { error: true, reason: 'unknown location' });
      json(200, {
        latitude: p.latitude,
        longitude: p.longitude,
        timezone: p.timezone,
        current_units: {
          time: 'iso8601',
          interval: 'seconds',
          temperature_2m: '°C',
          relative_humidity_2m: '%',
          weather_code: 'wmo code',
          wind_speed_10m: 'km/h',
        },
        current: {
          time: '2026-11-22T10:00',
          interval: 900,
          temperature_2m: p.temp,
          relative_humidity_2m: 71,
          weather_code: p.code,
          wind_speed_10m: 9.7,
        },
      });
      return;
    }
    json(404, { error: true, reason: 'Not Found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      for (const res of pending) res.destroy();
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}
