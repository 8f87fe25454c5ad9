"""Fetch operations against a loopback fixture that only test configuration may point an allowed host at."""

from __future__ import annotations

import datetime as dt
import json
import socket
import ssl
import time
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.fakes import FakeTable
from tests.helpers import tool_event
from tests.upstream import Upstream
from toolgen import auth
from toolgen.intent import classify
from toolgen.planner import OfflinePlanner
from toolgen.program import ToolProgram
from toolgen.runtime import ToolApp, fetch
from toolgen.runtime.errors import Forbidden, UpstreamError
from toolgen.runtime.fetch import PUBLIC_APIS

SECRET = "fetch-secret"


@pytest.fixture(scope="module")
def upstream():
    server = Upstream()
    yield server
    server.stop()


@pytest.fixture
def overrides(monkeypatch, upstream):
    monkeypatch.setenv("TOOLGEN_FETCH_OVERRIDES", json.dumps({host: upstream.url for host in PUBLIC_APIS}))


def tool(prompt: str) -> tuple[ToolApp, ToolProgram]:
    program = OfflinePlanner().plan(prompt, classify(prompt), []).program
    return ToolApp(program, tool_id="t" + "3" * 20, owner="ann", table=FakeTable(), secret=SECRET), program


def call(app: ToolApp, path: str, **query: str) -> tuple[int, dict]:
    response = app.handle(tool_event("GET", path, token=auth.mint("ann", SECRET), query=query))
    return response["statusCode"], json.loads(response["body"])


def test_weather_ranking_ranks_cities_from_the_real_response_shape(overrides, upstream):
    app, _ = tool("rank Beijing, Shanghai and Guangzhou by max temperature this week")
    status, body = call(app, "/ranking")
    assert status == 200
    assert body["items"] == [
        {"value": 25, "city": "Guangzhou"},
        {"value": 15, "city": "Shanghai"},
        {"value": 5, "city": "Beijing"},
    ]
    assert "latitude=39.91%2C31.22%2C23.12" in upstream.requests[-1]  # GeoNames' city centres


def test_weather_ranking_by_coldest_and_by_rain(overrides):
    assert [
        i["city"] for i in call(tool("coldest city this week: Beijing, Shanghai, Guangzhou")[0], "/ranking")[1]["items"]
    ] == ["Beijing", "Shanghai", "Guangzhou"]
    rain = call(tool("which of Beijing, Shanghai and Guangzhou gets the most rain this week")[0], "/ranking")[1][
        "items"
    ]
    assert [(i["city"], round(i["value"], 1)) for i in rain] == [
        ("Guangzhou", 14.0),
        ("Shanghai", 12.5),
        ("Beijing", 0.2),
    ]


def test_a_single_city_answer_is_one_object_and_still_ranks(overrides):
    status, body = call(tool("rank Beijing by how hot it gets this week")[0], "/ranking")
    assert status == 200 and body["items"] == [{"value": 5, "city": "Beijing"}]


def test_currency_conversion_uses_the_rate_table(overrides):
    app, program = tool("convert 100 dollars to euros")
    assert program.operations[0].inputs["from_currency"].default == "USD"
    status, body = call(app, "/convert", amount="250")
    assert status == 200
    assert body == {
        "amount": 250.0,
        "from_currency": "USD",
        "to_currency": "EUR",
        "rate": 0.9,
        "result": 225.0,
        "rate_date": "2026-12-01",
    }
    assert call(app, "/convert", amount="10", from_currency="CNY", to_currency="JPY")[1]["result"] == pytest.approx(
        208.3333
    )
    assert call(app, "/convert", amount="5", to_currency="USD")[1]["result"] == 5.0  # same currency: rate 1
    assert call(app, "/convert", amount="5", to_currency="XYZ")[0] == 422


def program_fetching(path_query: str) -> ToolProgram:
    """The weather program, pointed at another path of the fixture (through the same allowed host)."""
    data = (
        OfflinePlanner()
        .plan("rank Beijing by temperature", classify("rank Beijing by temperature"), [])
        .program.model_dump()
    )
    path, _, query = path_query.partition("?")
    data["operations"][0]["url"] = f"https://api.open-meteo.com{path}"
    data["operations"][0]["query"] = dict(p.split("=", 1) for p in query.split("&")) if query else {}
    return ToolProgram.model_validate(data)


def run(program: ToolProgram) -> dict:
    return fetch.run_fetch(program, program.operations[0], {}, dt.date(2026, 12, 2))


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/steal",
        "http://api.open-meteo.com/v1/forecast",
        "https://169.254.169.254/latest/meta-data",
        "https://127.0.0.1/admin",
    ],
)
def test_redirects_are_checked_like_the_first_request(overrides, target):
    with pytest.raises(Forbidden):
        run(program_fetching(f"/redirect?to={target}"))


def test_a_redirect_within_the_allowed_host_is_followed(overrides, upstream):
    result = run(program_fetching("/moved"))
    assert result["items"][0]["value"] == 5
    assert upstream.requests[-2:] == ["/moved", "/v1/forecast?latitude=39.90&longitude=116.41&daily=temperature_2m_max"]


def test_oversized_slow_and_non_json_answers_fail_cleanly(overrides, monkeypatch):
    with pytest.raises(UpstreamError, match="more than"):
        run(program_fetching("/big"))
    with pytest.raises(UpstreamError, match="not JSON"):
        run(program_fetching("/html"))
    monkeypatch.setattr(fetch, "TIMEOUT_S", 0.3)
    with pytest.raises(UpstreamError, match="did not answer"):
        run(program_fetching("/slow?s=2"))


@pytest.mark.parametrize("path", ["/drip?n=8&part=body", "/drip?n=8&part=headers", "/slow-moved?s=0.7&hops=3"])
def test_one_deadline_holds_for_the_whole_fetch(overrides, monkeypatch, path):
    # given an upstream that is never silent for as long as the limit (a byte a second, or a redirect every 0.7 s)
    # but takes longer than it in all
    monkeypatch.setattr(fetch, "TIMEOUT_S", 2.0)
    started = time.monotonic()
    # when the tool fetches from it
    with pytest.raises(UpstreamError, match="did not answer within 2 s"):
        run(program_fetching(path))
    # then the fetch ends by its deadline, not when the upstream is done
    assert time.monotonic() - started < 2.0 + 0.5


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for localhost and its key, for a TLS fixture the test alone trusts."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


@pytest.fixture(scope="module")
def tls_upstream(tmp_path_factory):
    cert, key = self_signed(tmp_path_factory.mktemp("tls"))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = Upstream(tls=context)
    yield server, cert
    server.stop()


def test_the_checked_https_connection_reads_by_the_same_deadline(tls_upstream, monkeypatch):
    # given an HTTPS upstream whose certificate this test trusts, reached at its checked (loopback) address
    server, cert = tls_upstream
    default_context = ssl.create_default_context
    monkeypatch.setattr(ssl, "create_default_context", lambda: default_context(cafile=str(cert)))

    def get(path: str, seconds: float) -> bytes:
        conn = fetch._PinnedHTTPSConnection(
            "localhost", "127.0.0.1", deadline=time.monotonic() + seconds, port=server.port
        )
        try:
            conn.request("GET", path)
            return conn.getresponse().read()
        finally:
            conn.close()

    # then an answer is read whole over TLS, and one that drips ends at the deadline
    assert json.loads(get("/v1/latest?base=USD", 2.0))["base"] == "USD"
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        get("/drip?n=8&every=0.5", 1.5)
    assert 1.4 < time.monotonic() - started < 3.0  # not the drip's 4 s


def test_upstream_failure_reaches_the_caller_as_502(overrides, monkeypatch):
    monkeypatch.setattr(fetch, "TIMEOUT_S", 0.3)
    program = program_fetching("/slow?s=2")
    app = ToolApp(program, tool_id="t" + "3" * 20, owner="ann", table=FakeTable(), secret=SECRET)
    status, body = call(app, "/ranking")
    assert status == 502 and body["code"] == "upstream_error"


def test_without_test_configuration_loopback_is_refused(monkeypatch):
    # the override is the only way to a loopback fixture: the real name must resolve to public addresses
    monkeypatch.delenv("TOOLGEN_FETCH_OVERRIDES", raising=False)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(2, 1, 6, "", ("127.0.0.1", 443))])
    with pytest.raises(Forbidden):
        run(program_fetching("/v1/forecast"))


# --- composed lookups: subjects of the knowledge base that read a public API per place ------------------------------


def test_air_quality_of_several_cities_is_ranked_worst_first_when_asked(overrides, upstream):
    app, program = tool("家里孩子有哮喘，想每天看一下北京、天津、石家庄的空气质量指数，哪个最差")
    assert program.archetype == "air_quality" and program.allowed_hosts == ["air-quality-api.open-meteo.com"]
    op = program.operations[0]
    status, body = call(app, op.path)
    assert status == 200, body
    assert [item["city"] for item in body["items"]] != [] and {i["city"] for i in body["items"]} == {
        "北京",
        "天津",
        "石家庄",
    }
    aqi = [item["aqi"] for item in body["items"]]
    assert aqi == sorted(aqi, reverse=True) and all(isinstance(v, float) for v in aqi)
    assert "/v1/air-quality?" in upstream.requests[-1] and "current=us_aqi" in upstream.requests[-1]
    assert program.labels["aqi"].startswith("空气质量指数")


def test_the_cleanest_air_first_when_that_is_asked(overrides):
    app, program = tool("which has the cleanest air today: Beijing, Tianjin or Shijiazhuang? check the air quality")
    body = call(app, program.operations[0].path)[1]
    aqi = [item["aqi"] for item in body["items"]]
    assert len(aqi) == 3 and aqi == sorted(aqi)


def test_a_daily_forecast_for_one_place_is_a_row_per_day(overrides, upstream):
    app, program = tool("Will I need an umbrella in Chicago this week? Show the chance of rain each day")
    assert program.archetype == "rain_forecast"
    status, body = call(app, program.operations[0].path)
    assert status == 200, body
    days = body["items"]
    assert [d["date"] for d in days] == [f"2026-12-{d:02d}" for d in range(2, 9)]
    assert all(set(d) == {"date", "rain_chance", "rain_mm", "city"} and d["city"] == "Chicago" for d in days)
    assert "latitude=41.85" in upstream.requests[-1] and "forecast_days=7" in upstream.requests[-1]


def test_several_places_read_day_by_day_are_a_row_per_place_and_day(overrides, upstream):
    app, program = tool("看一下北京、上海、广州这周每天会不会下雨，降水概率多少")
    assert program.archetype == "rain_forecast"  # nothing to rank: each city's days, not a ranking
    status, body = call(app, program.operations[0].path)
    assert status == 200, body
    rows = body["items"]
    assert len(rows) == 21 and [r["city"] for r in rows[::7]] == ["北京", "上海", "广州"]
    assert [r["date"] for r in rows[7:14]] == [f"2026-12-{d:02d}" for d in range(2, 9)]
    assert len({(r["city"], r["rain_chance"]) for r in rows}) > 3  # each place's own figures, not one copied
    assert "latitude=39.91%2C31.22%2C23.12" in upstream.requests[-1]


def test_a_lookup_shows_the_measures_the_request_names_besides_its_own(overrides, upstream):
    app, program = tool("看一下北京今天的紫外线指数和湿度，要不要带伞")
    assert program.archetype == "uv_index"
    status, body = call(app, program.operations[0].path)
    assert status == 200, body
    row = body["items"][0]
    assert {"uv_max", "humidity", "rain"} <= set(row) and row["city"] == "北京"
    assert all(isinstance(row[k], (int, float)) for k in ("uv_max", "humidity", "rain"))
    daily = upstream.requests[-1].split("daily=")[1].split("&")[0]
    assert daily.split("%2C") == ["uv_index_max", "relative_humidity_2m_mean", "precipitation_probability_max"]
    assert program.labels["humidity"] == "湿度（%）" and program.labels["rain"] == "降雨概率（%）"


def test_a_figure_named_that_another_api_gives_is_read_from_it_besides(overrides, upstream):
    # given a surf forecast, whose marine source has no wind, asked for the wind too, for one place
    app, program = tool("surf check for Lisbon this week: swell height, and the wind")
    assert program.archetype == "surf_forecast"
    waves, wind = program.operations
    assert {program.allowed_hosts[0], program.allowed_hosts[1]} == {"marine-api.open-meteo.com", "api.open-meteo.com"}
    # when both are called, each source is asked for its own figures, day by day
    status, body = call(app, waves.path)
    assert status == 200 and "wave_max" in body["items"][0], body
    assert "/v1/marine" in upstream.requests[-1] and "wind" not in upstream.requests[-1]
    status, body = call(app, wind.path)
    assert status == 200, body
    assert [d["date"] for d in body["items"]][:2] == ["2026-12-02", "2026-12-03"]
    assert all(isinstance(d["wind"], (int, float)) and d["city"] == "Lisbon" for d in body["items"])
    assert "/v1/forecast" in upstream.requests[-1] and "wind_speed_10m_max" in upstream.requests[-1]
    assert program.labels["wind"] == "Wind (km/h)"


def test_a_lookup_asked_about_tomorrow_reads_that_day_alone(overrides, upstream):
    # given a request about one day of a daily forecast
    app, program = tool("will it rain in Chicago tomorrow? chance of rain please")
    # when the tool is called
    status, body = call(app, program.operations[0].path)
    # then it asks the source for two days and shows the second, and its title says so
    assert status == 200, body
    assert [row["date"] for row in body["items"]] == ["2026-12-03"]
    assert "forecast_days=2" in upstream.requests[-1]
    assert program.title.endswith("tomorrow")


def test_a_lookup_asked_about_today_reads_today_for_every_place_it_ranks(overrides, upstream):
    app, program = tool("今天北京、上海、广州的紫外线哪里最强")
    status, body = call(app, program.operations[0].path)
    assert status == 200, body
    assert len(body["items"]) == 3 and "forecast_days=1" in upstream.requests[-1]
    assert program.title.endswith("（今天）")
    week = call(tool("这周北京、上海、广州的紫外线哪里最强")[0], program.operations[0].path)[1]
    assert "forecast_days=7" in upstream.requests[-1]
    assert {i["city"]: i["uv_max"] for i in week["items"]} != {i["city"]: i["uv_max"] for i in body["items"]}


def test_a_composed_lookup_reaches_only_the_platforms_apis(overrides):
    _, program = tool("what time is sunset in Lisbon this week")
    data = json.loads(program.model_dump_json())
    data["allowed_hosts"] = ["evil.example"]
    data["operations"][0]["url"] = "https://evil.example/v1/forecast"
    app = ToolApp(ToolProgram.model_validate(data), tool_id="t" + "3" * 20, owner="ann", table=FakeTable(),
                  secret=SECRET)  # fmt: skip
    status, body = call(app, data["operations"][0]["path"])
    assert status == 403, body


def test_the_nicest_weather_ranks_the_driest_first_with_each_places_high(overrides, upstream):
    # given a request for the nicest weather among three cities
    app, program = tool("which of Beijing, Shanghai or Guangzhou will have the nicest weather this week")
    # when the ranking is read
    status, body = call(app, "/ranking")
    # then the driest week comes first, each with its rain and its high, both labelled
    assert status == 200, body
    assert [(i["city"], i["value"], i["temp_max"]) for i in body["items"]] == [
        ("Beijing", 0.2, 5),
        ("Shanghai", 12.5, 15),
        ("Guangzhou", 14.0, 25),
    ]
    assert "daily=precipitation_sum%2Ctemperature_2m_max" in upstream.requests[-1]
    assert program.labels["value"].startswith("Rain") and program.labels["temp_max"].startswith("Highest")


def test_air_quality_asked_about_tomorrow_reads_the_worst_of_tomorrows_hours(overrides, upstream):
    app, program = tool("明天北京空气质量咋样，要不要戴口罩")
    status, body = call(app, program.operations[0].path)
    assert status == 200, body
    (row,) = body["items"]
    now = call(tool("北京现在空气质量怎么样")[0], program.operations[0].path)[1]["items"][0]
    # the fake's hours rise by a tenth an hour and ten a day from the current value: tomorrow's last hour is the worst
    assert row["aqi"] == pytest.approx(now["aqi"] + 10 + 2.3)
    assert program.title == "空气质量（明天）"


def test_air_quality_asked_day_by_day_is_each_days_worst_hour(overrides, upstream):
    # given a request for the air over the next days, which the API forecasts hour by hour only
    app, program = tool("北京这几天空气怎么样 PM2.5 能不能带孩子出去玩")
    assert program.archetype == "air_quality" and program.title == "空气质量（预报）"
    # when the tool is called
    status, body = call(app, program.operations[0].path)
    # then it asks for five days of hours and shows a row per day: its date and its highest hour of each figure
    assert status == 200, body
    assert "hourly=us_aqi%2Cpm2_5" in upstream.requests[-1] and "forecast_days=5" in upstream.requests[-1]
    rows = body["items"]
    assert [r["date"] for r in rows] == [f"2026-12-{d:02d}" for d in range(2, 7)]
    assert {r["city"] for r in rows} == {"北京"}
    worst = [round(r["aqi"] - 2.3, 6) for r in rows]  # the stub rises by a tenth an hour and ten a day
    assert worst == [round(worst[0] + 10 * d, 6) for d in range(5)]
    assert program.labels["pm2_5"] == "PM2.5（μg/m³）"


def test_air_quality_of_several_places_day_by_day_names_each_places_days(overrides, upstream):
    app, program = tool("air quality in Delhi and Mumbai for the next few days, my mum has asthma")
    assert program.archetype == "air_quality"  # the asthma is why, not the tool
    status, body = call(app, program.operations[0].path)
    assert status == 200, body
    rows = body["items"]
    assert [(r["city"], r["date"]) for r in rows[::5]] == [("Delhi", "2026-12-02"), ("Mumbai", "2026-12-02")]
    assert len(rows) == 10 and rows[0]["aqi"] != rows[5]["aqi"]
    # ranked, or checked each day, the air is read now: a place per row
    for ranked in ("rank Delhi, Mumbai and Lahore by air quality this week", "每天看北京、天津的空气质量哪个最差"):
        op = tool(ranked)[1].operations[0]
        assert "current" in op.query and "hourly" not in op.query, ranked


def test_a_day_read_from_hourly_columns_loses_its_hour_and_a_missing_hour_is_skipped(monkeypatch):
    # given a program whose select reads a day as its first hour and a day's highest hour past missing ones
    _, program = tool("北京这几天空气怎么样")
    op = program.operations[0]
    data = {"hourly": {"time": [f"2026-12-0{2 + h // 24}T{h % 24:02d}:00" for h in range(120)],
                       "us_aqi": [None if h % 24 == 23 else h for h in range(120)],
                       "pm2_5": [None] * 120}}  # fmt: skip
    monkeypatch.setattr(fetch, "fetch_json", lambda program, url: data)  # the answer, as the API gives it
    rows = fetch.run_fetch(program, op, {}, dt.date(2026, 12, 2))["items"]
    # then each row is one date, the highest hour it has, and no figure where no hour has one
    assert [r["date"] for r in rows] == ["2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05", "2026-12-06"]
    assert [r["aqi"] for r in rows] == [22, 46, 70, 94, 118] and all(r["pm2_5"] is None for r in rows)


def test_a_forecast_of_pollen_reads_days_with_as_many_figures_as_a_select_holds(overrides, upstream):
    app, program = tool("pollen forecast for Lyon, my hay fever is back")
    op = program.operations[0]
    assert program.archetype == "pollen" and op.query["hourly"] == "grass_pollen" and len(op.select) <= 500
    status, body = call(app, op.path)
    assert status == 200, body
    assert [r["date"] for r in body["items"]] == [f"2026-12-{d:02d}" for d in range(2, 7)]
    assert all(isinstance(r["grass_pollen"], float) for r in body["items"])


def test_current_weather_asked_over_the_days_to_come_is_the_daily_forecast_of_its_figures(overrides, upstream):
    # given the humidity asked over the coming days, in a request that also names what it is for
    app, program = tool("回南天又要来了，深圳未来几天的露点和湿度看一下")
    op = program.operations[0]
    # then it reads the daily forecast of the figures named, a row per day, titled a forecast
    assert program.archetype == "weather_now" and "daily" in op.query and "current" not in op.query
    assert {"dew_point_2m_max", "relative_humidity_2m_mean"} <= set(op.query["daily"].split(","))
    assert program.title == "天气（预报）"
    status, body = call(app, op.path)
    assert status == 200, body
    assert [r["date"] for r in body["items"]] == [f"2026-12-{d:02d}" for d in range(2, 9)]
    assert all(isinstance(r["humidity"], float) for r in body["items"])
    # kept as a log where it is recorded
    assert classify("回南天每天记一下家里的湿度").shape == "log"
