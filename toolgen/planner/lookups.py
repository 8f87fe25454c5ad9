"""Plans for lookups: tools whose answer comes from a public API on the platform's allow-list."""

from __future__ import annotations

from typing import Any

from toolgen.knowledge.places import Place, resolve
from toolgen.models import Intent
from toolgen.planner.common import Fact, field, op
from toolgen.planner.labels import text

WEATHER_HOST = "api.open-meteo.com"
FX_HOST = "api.frankfurter.dev"
DEFAULT_CITIES = ("Beijing", "Shanghai", "Guangzhou", "Shenzhen", "Chengdu")
# forecast metric: (open-meteo daily variable, JMESPath reducer over the week)
WEATHER_METRICS = {
    "temp_max": ("temperature_2m_max", "max"),
    "temp_min": ("temperature_2m_min", "min"),
    "precipitation": ("precipitation_sum", "sum"),
    "wind": ("wind_speed_10m_max", "max"),
    "nice": ("precipitation_sum", "sum"),  # the driest first, the week's high beside it
}
# Currencies with daily reference rates at the source (the European Central Bank's list, via Frankfurter).
FX_CURRENCIES = [
    "AUD",
    "BRL",
    "CAD",
    "CHF",
    "CNY",
    "CZK",
    "DKK",
    "EUR",
    "GBP",
    "HKD",
    "HUF",
    "IDR",
    "ILS",
    "INR",
    "ISK",
    "JPY",
    "KRW",
    "MXN",
    "MYR",
    "NOK",
    "NZD",
    "PHP",
    "PLN",
    "RON",
    "SEK",
    "SGD",
    "THB",
    "TRY",
    "USD",
    "ZAR",
]


def _places(names: list[str]) -> list[Place]:
    """The places the names stand for, in order, each once; a name no place has is left out."""
    places: dict[int, Place] = {}
    for place in filter(None, map(resolve, names)):
        places.setdefault(place.geoname_id, place)
    return list(places.values())


def weather_ranking(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    home = fact("city")
    places = _places([*(intent.slots.get("cities") or []), *([home] if home else [])]) or _places(list(DEFAULT_CITIES))
    cities = [place.name for place in places]
    shown = [place.zh or place.name for place in places] if lang == "zh" else cities
    metric = intent.slots.get("metric", "temp_max")
    variable, reducer = WEATHER_METRICS[metric]
    descending = intent.slots.get("order", "desc") == "desc"
    extra = {"temp_max": WEATHER_METRICS["temp_max"]} if metric == "nice" else {}  # shown beside the ranked value
    daily = ",".join([variable, *(v for v, _ in extra.values())])
    columns = "".join(f", {name}: {r}(daily.{v})" for name, (v, r) in extra.items())
    return {
        "name": "weather_ranking",
        "title": text(f"weather.title.{metric}", lang),
        "description": text("weather.description", lang).format(cities=("、" if lang == "zh" else ", ").join(shown)),
        "allowed_hosts": [WEATHER_HOST],
        "operations": [
            op(
                "rankCities",
                "fetch",
                "/ranking",
                f"weather.title.{metric}",
                lang,
                url=f"https://{WEATHER_HOST}/v1/forecast",
                query={
                    "latitude": ",".join(f"{place.lat:.2f}" for place in places),
                    "longitude": ",".join(f"{place.lon:.2f}" for place in places),
                    "daily": daily,
                    "timezone": "auto",
                    "forecast_days": "7",
                },
                select=f"[*].{{value: {reducer}(daily.{variable}){columns}}}",
                labels=cities,
                label_field="city",
                fields={"city": "string", "value": "number", **{name: "number" for name in extra}},
                sort="-value" if descending else "value",
                limit=len(cities),
            ),
        ],
        # what the ranked value is (page and API), and what is shown beside it
        "labels": {
            name: text(f"weather.value.{metric if name == 'value' else name}", lang) for name in ["value", *extra]
        },
        "defaults": {"cities": cities, "metric": metric},
    }


def currency_converter(intent: Intent, fact: Fact) -> dict[str, Any]:
    lang = intent.lang
    named = [c for c in intent.slots.get("currencies") or [] if c in FX_CURRENCIES]
    home = fact("currency") if fact("currency") in FX_CURRENCIES else ("CNY" if lang == "zh" else "USD")
    src = named[0] if named else home
    dst = named[1] if len(named) > 1 else ("EUR" if src != "EUR" else "USD") if not named or src != home else "EUR"
    if dst == src:
        dst = "USD" if src != "USD" else "EUR"
    amount = intent.slots.get("amount") or 100
    return {
        "name": "currency_converter",
        "title": text("currency.title", lang),
        "description": text("currency.description", lang),
        "allowed_hosts": [FX_HOST],
        "operations": [
            op(
                "convert",
                "fetch",
                "/convert",
                "currency.convert",
                lang,
                url=f"https://{FX_HOST}/v1/latest",
                inputs={
                    "amount": field(
                        "number", "amount", lang, required=True, default=amount, minimum=0, maximum=1_000_000_000
                    ),
                    "from_currency": field("string", "from_currency", lang, enum=FX_CURRENCIES, default=src),
                    "to_currency": field("string", "to_currency", lang, enum=FX_CURRENCIES, default=dst),
                },
                query={"base": "{from_currency}"},
                select="[0].{rates: rates, date: date}",
                fields={"rates": "object", "date": "date"},
                outputs={
                    "rate": "1 if from_currency == to_currency else rates[to_currency]",
                    "result": "round(amount * rate, 4)",
                    "rate_date": "date",
                },
            ),
        ],
        "defaults": {"from": src, "to": dst},
    }
