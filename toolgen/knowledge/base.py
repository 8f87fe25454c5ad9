"""The subject knowledge base: fields, subjects and formulas, kept as JSON data files in English and Chinese.

A *field* is a measurable or an attribute people record (systolic pressure in mmHg, a bedtime, a client's name),
with its type, unit, range and labels. A *subject* is something people make tools about (blood pressure, sleep,
plants to water, a mortgage): which shape of tool it takes, the words that name it in both languages, and its
fields (names from the field library, or fields of its own). A calculator subject carries its formula: typed
inputs and the expressions of its outputs. The fields are validated at load; a subject when it is first read (a
cold process reads a handful of 2,049, and validating them all took 120 ms), and every one of them by
`load(check=True)`, which the tests run, so a mistake in a data file fails there, never half-way through a plan.
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from toolgen.knowledge.loading import unscanned
from toolgen.reading import reader

DATA = Path(__file__).resolve().parent / "data"
NAME = r"^[a-z][a-z0-9_]{0,39}$"
Shape = Literal["log", "collection", "schedule", "dates", "calculator", "split", "lookup"]
SHAPES: tuple[str, ...] = ("log", "collection", "schedule", "dates", "calculator", "split", "lookup")
FieldKind = Literal["string", "text", "number", "integer", "boolean", "date", "time", "choice"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Words(Strict):
    """A text in both languages."""

    en: str = Field(min_length=1, max_length=80)
    zh: str = Field(min_length=1, max_length=80)

    def in_(self, lang: str) -> str:
        """The text in ``lang`` ('en' or 'zh')."""
        return self.zh if lang == "zh" else self.en


def _words(value: Any) -> Any:
    """``["Blood Pressure Log", "血压记录"]`` is shorthand for ``{"en": ..., "zh": ...}``."""
    if isinstance(value, list | tuple) and len(value) == 2:
        return {"en": value[0], "zh": value[1]}
    return value


class FieldDef(Strict):
    """One field a tool can record, from the library or a subject's own."""

    name: str = Field(default="", pattern=r"^$|" + NAME)
    type: FieldKind
    label: Words
    unit: str | None = Field(default=None, max_length=20, description="shown after the label: 'mmHg', 'kg'")
    min: float | None = None
    max: float | None = None
    required: bool = False
    sum: bool = Field(default=False, description="additive: a total over rows means something (minutes, ml, cost)")
    choices: list[Words] | None = Field(default=None, min_length=2, max_length=30)
    default: Any = None
    max_length: int | None = Field(default=None, ge=1, le=2000)
    words: list[str] = Field(
        default_factory=list, max_length=20, description="words that ask for it in a request: 'price', '价格'"
    )
    slot: str | None = Field(
        default=None,
        description="calculator input: the request's quantity that fills it ('share': one of several quantities "
        "said in one unit, in turn, as a split's parts are: '主卧20平，次卧15平和12平')",
    )
    same_as: list[str] = Field(
        default_factory=list,
        max_length=10,
        description="names of fields that mean the same: a tool with one lacks none",
    )

    _label = field_validator("label", mode="before")(_words)

    @field_validator("choices", mode="before")
    @classmethod
    def _choice_words(cls, value: Any) -> Any:
        return [_words(v) for v in value] if isinstance(value, list) else value

    @model_validator(mode="after")
    def _consistent(self) -> FieldDef:
        if (self.type == "choice") != (self.choices is not None):
            raise ValueError(f"field {self.name!r}: a choice field, and only one, has choices")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"field {self.name!r}: min is above max")
        if self.sum and self.type not in ("number", "integer"):
            raise ValueError(f"field {self.name!r}: only numbers can be summed")
        return self

    def display(self, lang: str) -> str:
        """The label with its unit: 'Systolic (mmHg)', '收缩压（mmHg）'."""
        label = self.label.in_(lang)
        if not self.unit:
            return label
        return f"{label}（{self.unit}）" if lang == "zh" else f"{label} ({self.unit})"


class Output(Strict):
    """One output of a formula: its expression over the inputs (and the outputs before it) and its label."""

    expr: str = Field(min_length=1, max_length=300)
    label: Words

    _label = field_validator("label", mode="before")(_words)


class Goal(Strict):
    """A target a log's rows add up to, per period: 150 minutes a week, 8 hours a night; or, a limit, a cap they
    stay under: two hours of screen time a day."""

    field: str = Field(pattern=NAME)
    period: Literal["day", "week", "month", "year", "all"] = Field(
        default="week", description="year: an allowance that starts again each January; all: over every row"
    )
    value: float = Field(gt=0)
    how: Literal["sum", "avg", "last"] = Field(default="sum", description="last: the latest reading (a weight)")
    limit: bool = Field(default=False, description="a cap to stay under (screen time, sodium): good while under it")


# The public APIs a composed lookup reads (each also in the runtime's registry, toolgen/runtime/fetch.py), by the
# name a subject gives: all answer per place, from its coordinates.
LOOKUP_APIS = {
    "forecast": "https://api.open-meteo.com/v1/forecast",
    "air_quality": "https://air-quality-api.open-meteo.com/v1/air-quality",
    "marine": "https://marine-api.open-meteo.com/v1/marine",
}


class LookupValue(Strict):
    """One figure a lookup shows per place: the API's variable and how a week of it is summed up."""

    var: str = Field(pattern=r"^[a-z][a-z0-9_]{0,59}$", description="the API's variable: 'precipitation_sum'")
    reduce: Literal["max", "min", "sum", "avg", "first"] = Field(
        default="first", description="daily series: a week of it as one figure per place"
    )
    type: Literal["number", "string"] = "number"
    label: Words
    unit: str | None = Field(default=None, max_length=20)

    _label = field_validator("label", mode="before")(_words)


class Lookup(Strict):
    """What a lookup subject reads for each place: current values, or a daily forecast (a row per day for one
    place, a week's figure per place for several)."""

    api: Literal["forecast", "air_quality", "marine"]
    series: Literal["current", "daily"]
    values: dict[str, LookupValue] = Field(min_length=1, max_length=8)
    sort: str | None = Field(default=None, pattern=r"^-?[a-z][a-z0-9_]{0,39}$", description="places ranked by")
    days: int = Field(default=7, ge=1, le=16)

    @model_validator(mode="after")
    def _sorted_by_a_value(self) -> Lookup:
        if self.sort and self.sort.lstrip("-") not in self.values:
            raise ValueError(f"lookup sorts by {self.sort!r}, which is none of its values")
        for name in self.values:
            if not re.fullmatch(NAME, name) or name in ("city", "date"):
                raise ValueError(f"lookup value {name!r}: a snake_case name other than city and date")
        return self


class MeasureRead(Strict):
    """How one API gives a measure in one series."""

    var: str = Field(pattern=r"^[a-z][a-z0-9_]{0,59}$")
    unit: str | None = Field(default=None, max_length=20)
    reduce: Literal["max", "min", "sum", "avg", "first"] = "first"
    label: Words | None = Field(
        default=None, description="when the series reads it otherwise ('High temperature' for a day)"
    )

    _label = field_validator("label", mode="before")(_words)


class Measure(Strict):
    """A figure a lookup may show when a request names it ("and the humidity", "要不要带伞"), with the variable
    each public API gives it by: a lookup subject's own values, widened by what the person asked for."""

    id: str = Field(pattern=NAME)
    en: list[str] = Field(min_length=1, max_length=20)
    zh: list[str] = Field(min_length=1, max_length=20)
    label: Words
    type: Literal["number", "string"] = "number"
    reads: dict[Literal["forecast", "air_quality", "marine"], dict[Literal["current", "daily"], MeasureRead]]

    _label = field_validator("label", mode="before")(_words)

    def value(self, api: str, series: str) -> LookupValue | None:
        """This measure as a lookup's value on ``api``'s ``series``, when that API gives it there."""
        read = self.reads.get(api, {}).get(series)  # type: ignore[call-overload]
        if read is None:
            return None
        label = read.label or self.label
        return LookupValue(var=read.var, reduce=read.reduce, type=self.type, label=label, unit=read.unit)


class Subject(Strict):
    id: str = Field(pattern=NAME)
    shape: Shape
    en: list[str] = Field(min_length=1, max_length=30, description="English words that name it (lowercase)")
    zh: list[str] = Field(min_length=1, max_length=30, description="Chinese words that name it")
    patterns: list[str] = Field(
        default_factory=list,
        max_length=5,
        description="regular expressions for a kind of sentence that names it ('$28 an hour ... a year')",
    )
    title: Words
    item: Words = Field(description="what one row is: 'reading', '读数'")
    fields: list[str | FieldDef] = Field(default_factory=list, max_length=25)
    per: str | None = Field(default=None, pattern=NAME, description="the field rows are grouped by (client, person)")
    goal: Goal | None = None
    task: Words | None = Field(default=None, description="schedule: the recurring task's default name")
    every_days: int | None = Field(default=None, ge=1, le=3650, description="schedule: default interval")
    yearly: bool = Field(default=False, description="dates: the date recurs every year (birthdays)")
    rota: bool = Field(default=False, description="schedule: people take turns at each task (a chore rota)")
    inputs: list[str | FieldDef] = Field(default_factory=list, max_length=20, description="calculator inputs")
    outputs: dict[str, Output] = Field(default_factory=dict, max_length=20, description="calculator outputs")
    constants: dict[str, Any] = Field(default_factory=dict)
    derive: dict[str, str] = Field(default_factory=dict, description="field: expression when a row omits it")
    computed: dict[str, Output] = Field(default_factory=dict, max_length=8, description="per-row figures")
    figures: dict[str, Output] = Field(default_factory=dict, max_length=8, description="figures over the rows")
    lookup: Lookup | None = Field(default=None, description="lookup: what it reads from a public API, per place")
    weight: float = Field(default=0.0, ge=-2, le=2, description="added to the words' score (rare, specific: +)")
    part_of: str | None = Field(
        default=None,
        pattern=NAME,
        description="a named kind this calculator is one operation of ('cups to grams' is a unit conversion)",
    )

    _title = field_validator("title", "item", "task", mode="before")(_words)

    @field_validator("en")
    @classmethod
    def _lowercase(cls, words: list[str]) -> list[str]:
        for word in words:
            if word != word.lower() or not word.strip():
                raise ValueError(f"English words are lowercase and not blank: {word!r}")
        return words

    @field_validator("patterns")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            re.compile(pattern)
        return patterns

    @model_validator(mode="after")
    def _shape_parts(self) -> Subject:
        if self.shape == "calculator" and not (self.inputs and self.outputs):
            raise ValueError(f"subject {self.id}: a calculator has inputs and outputs")
        if self.shape != "calculator" and (self.inputs or self.outputs):
            raise ValueError(f"subject {self.id}: only a calculator has inputs and outputs")
        if (self.shape == "lookup") != (self.lookup is not None):
            raise ValueError(f"subject {self.id}: a lookup, and only a lookup, says what it reads")
        return self


class Names(NamedTuple):
    """What names a subject, read from its data as written: the readers' indexes need these of every subject."""

    id: str
    en: tuple[str, ...]
    zh: tuple[str, ...]
    title: tuple[str, str]  # English, Chinese
    item: tuple[str, str]
    patterns: tuple[str, ...]


def _pair(value: Any) -> tuple[str, str]:
    words = _words(value)
    return (str(words.get("en", "")), str(words.get("zh", ""))) if isinstance(words, dict) else ("", "")


class Subjects(Mapping[str, Subject]):
    """The subjects by id, each validated the first time it is read; ``names()`` gives every subject's words
    without validating any."""

    def __init__(self, raw: dict[str, dict[str, Any]]) -> None:
        self._raw = raw
        self._made: dict[str, Subject] = {}
        self._names: list[Names] | None = None

    def __getitem__(self, sid: str) -> Subject:
        made = self._made.get(sid)
        if made is None:
            raw = self._raw[sid]
            made = Subject.model_validate(
                {**raw, "fields": _subject_fields(raw.get("fields", [])), "inputs": raw.get("inputs", [])}
            )
            self._made[sid] = made
        return made

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)

    def __contains__(self, sid: object) -> bool:
        return sid in self._raw

    def names(self) -> list[Names]:
        """Every subject's words, in the order of the data files."""
        if self._names is None:
            self._names = [
                Names(sid, tuple(raw.get("en", ())), tuple(raw.get("zh", ())), _pair(raw.get("title")),
                      _pair(raw.get("item")), tuple(raw.get("patterns", ())))
                for sid, raw in self._raw.items()
            ]  # fmt: skip
        return self._names


class Library(Strict):
    """The whole knowledge base: the fields, and the subjects (validated as they are read; check() validates all of
    them and resolves every field they name)."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    fields: dict[str, FieldDef]
    subjects: Subjects
    measures: dict[str, Measure] = Field(default_factory=dict)
    # fields of data/attributes/: any tool's, added when a request names them; no subject records them, so their
    # words say nothing of which subject a request is about (intent/read.py's subject nouns leave them out)
    attributes: frozenset[str] = frozenset()

    def check(self) -> Library:
        """Every subject validated, and every field it names resolved."""
        for subject in self.subjects.values():
            for ref in [*subject.fields, *subject.inputs]:
                if isinstance(ref, str) and ref not in self.fields:
                    raise ValueError(f"subject {subject.id} names unknown field {ref!r}")
            names = [f.name for f in self.fields_of(subject)]
            if len(names) != len(set(names)):
                raise ValueError(f"subject {subject.id} has a field twice: {names}")
            if subject.per and subject.per not in names:
                raise ValueError(f"subject {subject.id} groups per {subject.per!r}, which is not one of its fields")
            for derived in subject.derive:
                if derived not in names:
                    raise ValueError(f"subject {subject.id} derives unknown field {derived!r}")
            if subject.goal and subject.goal.field not in names:
                raise ValueError(f"subject {subject.id}: goal on unknown field {subject.goal.field!r}")
        return self

    def _resolve(self, refs: list[str | FieldDef]) -> list[FieldDef]:
        return [self.fields[r] if isinstance(r, str) else r for r in refs]

    def fields_of(self, subject: Subject) -> list[FieldDef]:
        """A subject's fields, library references resolved."""
        return self._resolve(subject.fields)

    def inputs_of(self, subject: Subject) -> list[FieldDef]:
        """A calculator's inputs, library references resolved."""
        return self._resolve(subject.inputs)


def _named_fields(raw: dict[str, Any]) -> dict[str, FieldDef]:
    return {name: FieldDef.model_validate({**spec, "name": name}) for name, spec in raw.items()}


def _subject_fields(refs: list[Any]) -> list[Any]:
    return [ref if isinstance(ref, str) else {**ref} for ref in refs]


def load(data: Path = DATA, *, check: bool = True) -> Library:
    """The knowledge base in ``data``: fields/*.json (the field library, with attributes/*.json: fields only a
    request names) and subjects/*.json; with ``check``, every subject validated and its fields resolved."""
    fields: dict[str, FieldDef] = {}
    attributes: set[str] = set()
    for path in [*sorted((data / "fields").glob("*.json")), *sorted((data / "attributes").glob("*.json"))]:
        for name, spec in _named_fields(json.loads(path.read_text())).items():
            if name in fields:
                raise ValueError(f"{path.parent.name}/{path.name}: field {name!r} is defined twice")
            fields[name] = spec
            if path.parent.name == "attributes":
                attributes.add(name)
    subjects: dict[str, dict[str, Any]] = {}
    for path in sorted((data / "subjects").glob("*.json")):
        for raw in json.loads(path.read_text()):
            sid = raw.get("id") if isinstance(raw, dict) else None
            if not isinstance(sid, str):
                raise ValueError(f"{path.name}: a subject without an id: {str(raw)[:80]}")
            if sid in subjects:
                raise ValueError(f"{path.name}: subject {sid!r} is defined twice")
            subjects[sid] = raw
    measures: dict[str, Measure] = {}
    if (data / "measures.json").exists():
        for raw in json.loads((data / "measures.json").read_text()):
            measure = Measure.model_validate(raw)
            if measure.id in measures:
                raise ValueError(f"measures.json: measure {measure.id!r} is defined twice")
            measures[measure.id] = measure
    for sid, raw in subjects.items():
        for ref in raw.get("fields", []):
            if isinstance(ref, str) and ref in attributes:
                raise ValueError(f"subject {sid} records {ref!r}, an attribute: move it to fields/")
    lib = Library(fields=fields, subjects=Subjects(subjects), measures=measures, attributes=frozenset(attributes))
    return lib.check() if check else lib


@cache
def library() -> Library:
    """The platform's knowledge base (loaded once per process; each subject validated when it is first read, all of
    them by the tests' load(check=True))."""
    with unscanned():
        return load(check=False)


# Names a field cannot have: the expression language's own words ("count_where(return, True)" does not parse).
# Functions are called from a namespace of their own, so a field may be called "count" or "sum".
RESERVED = frozenset(keyword.kwlist)


def snake(text: str) -> str:
    """An identifier from English words: 'blood pressure reading' -> 'blood_pressure_reading' ('return', a word of
    the expression language, -> 'return_value')."""
    name = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    if not name or not name[0].isalpha():
        name = "item" + ("_" + name if name else "")
    name = name[:40].rstrip("_")
    return f"{name}_value" if name in RESERVED else name


@reader
def measures_named(text: str) -> list[str]:
    """The measures a request names ("UV and humidity", "要不要带伞"), in the order the knowledge base lists them."""
    lowered = text.lower()
    found = []
    for measure in library().measures.values():
        english = any(re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", lowered) for w in measure.en)
        if english or any(w.lower() in lowered for w in measure.zh):
            found.append(measure.id)
    return found
