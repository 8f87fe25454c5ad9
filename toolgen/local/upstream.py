"""A loopback stand-in for the public APIs tools fetch from, answering in their real response shapes: for tests, and
for `toolgen eval --model-path`, which replays a model's tools with no network.

Open-Meteo (forecast, air quality, marine) answers a list of per-location objects when several coordinates are
asked for (one object for one), with "daily" columns and "current" values;
Frankfurter answers {"amount", "base", "date", "rates"}. Extra paths misbehave on purpose: redirects, an answer
over the size cap, a slow answer, one that drips a byte at a time (its headers or its body), slow redirects, and one
that is not JSON.
"""

from __future__ import annotations

import json
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from toolgen.planner.lookups import FX_CURRENCIES

# Units per US dollar: a few round figures the tests check by hand, and one for every other currency the tool offers.
RATES = {"USD": 1.0, "EUR": 0.9, "CNY": 7.2, "JPY": 150.0, "GBP": 0.8}
RATES.update({code: 1.0 + i / 10 for i, code in enumerate(FX_CURRENCIES) if code not in RATES})
FORECAST = {  # latitude to one decimal (Beijing, Shanghai, Guangzhou) -> a week of daily maxima, minima and rain
    "39.9": ([1, 3, 2, 4, 5, 3, 2], [-8, -6, -7, -5, -4, -6, -7], [0, 0, 0.2, 0, 0, 0, 0]),
    "31.2": ([12, 14, 13, 15, 11, 12, 13], [5, 6, 6, 7, 4, 5, 6], [3.1, 0, 0, 8.4, 1.0, 0, 0]),
    "23.1": ([22, 24, 23, 25, 21, 22, 24], [14, 15, 15, 16, 13, 14, 15], [0, 0, 0, 0, 0, 14.0, 0]),
}


DAYS = [f"2026-12-{d:02d}" for d in range(2, 9)]


def _series(variable: str, lat: float, days: int = 7) -> list:
    """A plausible week of any other daily variable, different per place (sunrise and sunset as local times)."""
    if variable in ("sunrise", "sunset"):
        hour = 7 if variable == "sunrise" else 17
        return [f"{day}T{hour:02d}:{(int(lat) + i) % 60:02d}" for i, day in enumerate(DAYS[:days])]
    return [round(abs(lat) % 10 + i * 1.5, 1) for i in range(days)]


def _current(variable: str, lat: float) -> float:
    return round(abs(lat) * 2 % 150 + len(variable), 1)  # e.g. a US AQI between 0 and 160


def forecast_location(
    lat: str, lon: str, variables: list[str], current: list[str] | None = None, days: int = 7,
    hourly: list[str] | None = None,
) -> dict:  # fmt: skip
    """One place's answer, with ``days`` days of each daily (and hourly) variable (Open-Meteo's ``forecast_days``)."""
    highs, lows, rain = FORECAST.get(f"{float(lat):.1f}", ([None] * 7,) * 3)
    known = {"temperature_2m_max": highs, "temperature_2m_min": lows, "precipitation_sum": rain,
             "wind_speed_10m_max": [10.0] * 7}  # fmt: skip
    series = {v: known[v] if known.get(v, [None])[0] is not None else _series(v, float(lat)) for v in variables}
    place = {
        "latitude": float(lat), "longitude": float(lon), "generationtime_ms": 0.05, "utc_offset_seconds": 28800,
        "timezone": "Asia/Shanghai", "timezone_abbreviation": "GMT+8", "elevation": 44.0,
    }  # fmt: skip
    if variables:
        place["daily_units"] = {"time": "iso8601", **{v: "°C" for v in variables}}
        place["daily"] = {"time": DAYS[:days], **{v: column[:days] for v, column in series.items()}}
    if hourly:  # each hour of each day: the place's current value, rising by a tenth an hour and by ten a day
        base = {v: _current(v, float(lat)) for v in hourly}
        hours = [f"{day}T{h:02d}:00" for day in DAYS[:days] for h in range(24)]
        place["hourly"] = {"time": hours, **{v: [base[v] + d * 10 + h / 10 for d in range(days) for h in range(24)]
                                              for v in hourly}}  # fmt: skip
    if current:
        place["current"] = {
            "time": "2026-12-02T12:00",
            "interval": 900,
            **{v: _current(v, float(lat)) for v in current},
        }
    return place


class _Server(ThreadingHTTPServer):
    upstream: Upstream


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        # a fact checker: a place that has closed is no longer true; the weather is unknowable
        fact = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        self.server.upstream.requests.append(f"POST {self.path} {fact.get('key')}={fact.get('value')}")
        value = str(fact.get("value") or "")
        verdict = False if value in self.server.upstream.closed else None if fact.get("key") == "weather" else True
        self._json({"valid": verdict})

    def do_GET(self) -> None:
        self.server.upstream.requests.append(self.path)
        if self.server.upstream.down:  # unreachable: the connection ends with no answer
            self.close_connection = True
            return
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        if parts.path in ("/v1/forecast", "/v1/air-quality", "/v1/marine"):  # Open-Meteo's APIs, per place
            lats, lons = query["latitude"].split(","), query["longitude"].split(",")
            daily = [v for v in query.get("daily", "").split(",") if v]
            current = [v for v in query.get("current", "").split(",") if v]
            hourly = [v for v in query.get("hourly", "").split(",") if v]
            days = int(query.get("forecast_days", 7))
            places = [forecast_location(a, o, daily, current, days, hourly) for a, o in zip(lats, lons, strict=True)]
            self._json(places if len(places) > 1 else places[0])
        elif parts.path == "/v1/latest":
            base = query.get("base", "EUR")
            rates = {c: round(r / RATES[base], 6) for c, r in RATES.items() if c != base}
            self._json({"amount": 1.0, "base": base, "date": "2026-12-01", "rates": rates})
        else:
            try:
                self._misbehave(parts.path, query)
            except OSError:  # a client that gave up on a slow answer, as it should have
                self.close_connection = True

    def _misbehave(self, path: str, query: dict[str, str]) -> None:
        """The paths that answer the way an upstream should not (or, for /moved, only unusually)."""
        if path == "/moved":  # a permanent move within the same allowed host
            self._redirect(301, "/v1/forecast?latitude=39.90&longitude=116.41&daily=temperature_2m_max")
        elif path.startswith("/redirect"):
            self._redirect(302, query["to"])
        elif path == "/big":
            self._json({"items": ["x" * 1000] * 1200})
        elif path == "/slow":
            time.sleep(float(query.get("s", "2")))
            self._json([])
        elif path == "/slow-moved":  # each hop answers in time; all of them together do not
            time.sleep(float(query["s"]))
            hops = int(query["hops"])
            self._redirect(302, f"/slow-moved?s={query['s']}&hops={hops - 1}" if hops else "/slow?s=0")
        elif path == "/drip":
            self._drip(int(query.get("n", "20")), float(query.get("every", "1")), query.get("part", "body"))
        else:
            self._raw(200, b"<html>not json</html>", "text/html")

    def _redirect(self, status: int, location: str) -> None:
        self.send_response(status)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _drip(self, n: int, every: float, part: str) -> None:
        """A valid JSON answer ([, n spaces, ]) sent one byte every ``every`` seconds: its body, or a
        header before it; it stops when the client has gone."""
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        body = b"[" + b" " * n + b"]"
        if part == "headers":
            first, drip, rest = (
                head + b"X-Pad: ",
                b"a" * n,
                f"\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body,
            )
        else:
            first, drip, rest = head + f"Content-Length: {len(body)}\r\n\r\n".encode(), body, b""
        try:
            self.wfile.write(first)
            for byte in drip:
                time.sleep(every)
                self.wfile.write(bytes([byte]))
            self.wfile.write(rest)
        except OSError:  # the client gave up, as it should have
            self.close_connection = True

    def _json(self, value: object) -> None:
        self._raw(200, json.dumps(value).encode(), "application/json")

    def _raw(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Upstream:
    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.requests: list[str] = []
        self.closed: set[str] = {"Luigi's"}  # places the fact checker knows have closed
        self.down = False  # every GET hangs up without an answer, as an unreachable API would
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.upstream = self
        if tls is not None:  # HTTPS, for the tests of the runtime's own TLS connection
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
