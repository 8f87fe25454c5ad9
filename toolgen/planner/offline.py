"""The offline planner: deterministic rules from intent, slots and memory to a ToolProgram.

No model and no network: it is the default, and the fallback when an LLM is configured but fails. Structured
memories fill slots and defaults here (a home city joins the weather ranking, a morning-run habit gives the run
log a morning start, a dark-mode preference gives a dark page); which memories did so is kept in provenance.
The plans themselves live by family: trackers, lists, calculators and lookups.
"""

from __future__ import annotations

from dataclasses import asdict

from toolgen.errors import StageError
from toolgen.models import Intent, RecalledMemory
from toolgen.planner import Plan, PlanInfo, calculators, lists, lookups, trackers
from toolgen.planner.common import Builder
from toolgen.planner.compose import add_part, compose
from toolgen.planner.requested import add_breakdown, add_period_figures, add_random_pick, add_requested_fields
from toolgen.program import ToolProgram

BUILDERS: dict[str, Builder] = {
    "run_log": trackers.run_log,
    "habit_tracker": trackers.habit_tracker,
    "caffeine_tracker": trackers.caffeine_tracker,
    "water_tracker": trackers.water_tracker,
    "mood_journal": trackers.mood_journal,
    "budget_tracker": trackers.budget_tracker,
    "expense_splitter": trackers.expense_splitter,
    "focus_planner": trackers.focus_planner,
    "todo_list": lists.todo_list,
    "reading_list": lists.reading_list,
    "flashcards": lists.flashcards,
    "restaurant_picker": lists.restaurant_picker,
    "countdown": lists.countdown,
    "unit_converter": calculators.unit_converter,
    "tip_calculator": calculators.tip_calculator,
    "bmi_calculator": calculators.bmi_calculator,
    "weather_ranking": lookups.weather_ranking,
    "currency_converter": lookups.currency_converter,
}


class OfflinePlanner:
    """Planner that needs nothing but the intent."""

    name = "offline"

    def plan(
        self,
        prompt: str,
        intent: Intent,
        memories: list[RecalledMemory],
        context: str = "",
        *,
        draft: Plan | None = None,
        time_zone: str | None = None,
        unclear: bool = False,
        deadline: float | None = None,
    ) -> Plan:
        """A validated ToolProgram for ``intent``; StageError when the archetype has no plan."""
        if draft is not None:  # the composer is deterministic: the draft made for this request is the plan
            return draft
        builder = BUILDERS.get(intent.archetype or "")
        if builder is None and not (intent.shape and intent.archetype):
            raise StageError("plan", f"no plan for archetype {intent.archetype!r}")
        facts = {m.key: (m.value, m.memory_id) for m in memories if m.key and m.value}
        used: list[str] = []

        def fact(key: str) -> str | None:
            if key not in facts:
                return None
            value, memory_id = facts[key]
            used.append(memory_id)
            return value

        composition = None
        if builder is not None:
            program = builder(intent, fact)
            add_part(program, intent, fact)
            add_requested_fields(program, intent)
            if intent.slots.get("list_of"):  # "a grocery list": the list is called what the person calls it
                what = intent.slots["list_of"]
                program["title"] = f"{what}清单" if intent.lang == "zh" else f"{what.title()} List"
        else:
            program, made = compose(intent, fact)
            composition = asdict(made)
        add_period_figures(program, intent)
        add_breakdown(program, intent)
        add_random_pick(program, intent)
        theme = fact("theme")
        program["ui"] = {"lang": intent.lang, "mode": theme if theme in ("dark", "light") else "auto"}
        program["archetype"] = intent.archetype
        program["provenance"] = {"request": prompt, "memories": list(dict.fromkeys(used)), "planner": "offline"}
        return Plan(ToolProgram.model_validate(program), PlanInfo(planner="offline"), composition)
