"""Where memories live: the platform table, ``USER#u`` partition.

Items: ``MEM#<id>`` the memory; ``MEMH#<id>#<seq>`` its history, one item per change; ``MEMKEY#<key>`` the active
memory for a structured key (and ``MEMTEXT#<fingerprint>`` for a text), holding what learning needs to decide
without reading the memory; ``PROFILE`` the person's memory version, a stamp renewed by every change so a warm
process knows when its recall index is stale; and, in a partition of its own (``MEMLOG#<user>``), the change log:
one item per version naming the memories it changed, which is all a warm index reads to catch up. With
embeddings configured a memory item also holds its text's embedding (``vector``, float16 bytes, and
``vector_model``), kept out of the Memory the API shows.

Learning a fact never deletes or duplicates: the same fact again is *restated* on the existing memory (a
confirmation: its age counts from then, and a fact once found invalid is current again); a new value for a key
*supersedes* the old memory (kept, marked, in history, never recalled; ``valid_until`` set) in the same
transaction that adds the new. Keys of one concept are one family with one pointer ("I run at 6:30", then "I run
in the evening now": the evening supersedes 06:30). A statement that denies or ends a fact ("I'm not vegetarian
anymore", toolgen/memory/statement.py) ends the memory holding it the same way, and is itself kept as text.
Every other write is one read at most and one batch of independent items.
"""

from __future__ import annotations

import builtins
import logging
import re
import time
from typing import Any, Protocol

import numpy as np

from toolgen import cursor
from toolgen.bounds import MAX_MEMORIES_PER_PERSON
from toolgen.errors import BadPageTokenError, ConflictError, InvalidInputError, NotFoundError, TooManyMemoriesError
from toolgen.ids import MEMORY_ID_RE, id_at, sortable_id
from toolgen.memory import statement
from toolgen.memory.extract import Fact, Reader, RuleReader
from toolgen.memory.llm import EmbeddingError, OpenAIEmbedder
from toolgen.memory.text import fingerprint, tokens
from toolgen.models import HistoryEntry, Memory
from toolgen.table import Change, ItemTable, Put, user_pk

logger = logging.getLogger(__name__)
PROFILE = "PROFILE"
COUNT = "MEMCOUNT"  # how many memories the person keeps (the cap); apart from PROFILE, which is written whole
LOG = "MEMLOG#"  # the change log: one item per memory version, naming the memories that version changed
LOG_KEPT_S = 7 * 86_400  # the table's TTL removes log entries after a week (an index older than that reloads)
COUNTERS = ("uses", "turns", "interventions_tried", "interventions_succeeded")


class MemoryStore(Protocol):
    reader: Reader  # how facts are read from text (rules, or a model beside them)

    def learn(
        self, user: str, text: str, *, source: str = "api", fact: Fact | None = None, literal: bool = False
    ) -> Memory: ...
    def get(self, user: str, memory_id: str) -> Memory: ...
    def list(self, user: str, *, include_superseded: bool = False) -> builtins.list[Memory]: ...
    def list_page(
        self, user: str, token: str | None, limit: int, *, include_superseded: bool = False
    ) -> tuple[builtins.list[Memory], str | None]: ...
    def search(self, user: str, query: str) -> builtins.list[Memory]: ...
    def edit(self, user: str, memory_id: str, text: str) -> Memory: ...
    def delete(self, user: str, memory_id: str) -> None: ...
    def history(self, user: str, memory_id: str) -> builtins.list[HistoryEntry]: ...
    def version(self, user: str) -> str: ...
    def changes(self, user: str, since_ms: int) -> builtins.list[tuple[str, builtins.list[str]]]: ...
    def page(
        self, user: str, start: dict[str, Any] | None, model: str | None
    ) -> tuple[builtins.list[Memory], dict[str, np.ndarray], dict[str, Any] | None]: ...
    def get_many(
        self, user: str, memory_ids: builtins.list[str], model: str | None
    ) -> tuple[builtins.list[Memory], dict[str, np.ndarray]]: ...
    def set_vectors(self, user: str, vectors: dict[str, np.ndarray], model: str) -> None: ...
    def credit(
        self, user: str, memory_ids: builtins.list[str], counters: dict[str, int], reason: str, tool: str | None = None
    ) -> None: ...
    def mark_used(self, user: str, memory_ids: builtins.list[str], tool_id: str) -> None: ...
    def verify(self, user: str, memory_id: str, valid: bool, source: str | None) -> Memory: ...
    def forget_user(self, user: str) -> int: ...


def log_pk(user: str) -> str:
    """The change log has a partition of its own, so reading what changed costs what changed (on moto a query
    costs the size of its partition, and a person's partition holds every memory)."""
    return f"MEMLOG#{user}"


# Keys that name one concept: a person has one of them at a time (the run log reads either).
FAMILIES = {"run_time_of_day": "run_time"}


def family(key: str) -> str:
    return FAMILIES.get(key, key)


def _pointer_sk(key: str | None, text: str) -> str:
    return f"MEMKEY#{family(key)}" if key else f"MEMTEXT#{fingerprint(text)}"


def _fields(item: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k not in ("pk", "sk", "vector", "vector_model")}


def _decoded(
    items: builtins.list[dict[str, Any]], model: str | None
) -> tuple[builtins.list[Memory], dict[str, np.ndarray]]:
    """Memory items as Memories, and the embeddings among them made with ``model``."""
    memories, vectors = [], {}
    for item in items:
        memory = Memory.model_validate(_fields(item))
        memories.append(memory)
        if model and item.get("vector_model") == model and item.get("vector"):
            vectors[memory.memory_id] = np.frombuffer(item["vector"], dtype="<f2").astype(np.float32)
    return memories, vectors


def _vector(vector: np.ndarray, model: str) -> dict[str, Any]:
    """An embedding as item attributes: float16 bytes (half the size; cosine barely moves) and its model."""
    return {"vector": np.asarray(vector, dtype="<f2").tobytes(), "vector_model": model}


class DynamoMemoryStore:
    """MemoryStore on the platform table (or any ItemTable)."""

    def __init__(
        self,
        table: ItemTable,
        clock: Any = time.time,
        *,
        reader: Reader | None = None,
        embedder: OpenAIEmbedder | None = None,
    ) -> None:
        self.table = table
        self.clock = clock
        self.reader: Reader = reader or RuleReader()
        self.embedder = embedder

    # --- reading ----------------------------------------------------------------------------------------------

    def get(self, user: str, memory_id: str) -> Memory:
        item = self.table.get(user_pk(user), f"MEM#{memory_id}") if MEMORY_ID_RE.match(memory_id or "") else None
        if item is None:
            raise NotFoundError(f"no memory {memory_id}")
        return Memory.model_validate(_fields(item))

    def list(self, user: str, *, include_superseded: bool = False) -> builtins.list[Memory]:
        memories = [Memory.model_validate(_fields(i)) for i in self.table.query(user_pk(user), "MEM#")]
        return memories if include_superseded else [m for m in memories if m.status == "active"]

    def list_page(
        self, user: str, token: str | None, limit: int, *, include_superseded: bool = False
    ) -> tuple[builtins.list[Memory], str | None]:
        """Up to ``limit`` of the person's memories, oldest first, from where ``token`` says (BadPageTokenError if
        it is not one this list gave), and the token of the next page (None after the last). Superseded memories
        are left out of a page unless asked for, so a page may hold fewer than ``limit``."""
        try:
            start = cursor.decode(token, user_pk(user), "MEM#") if token is not None else None
        except cursor.BadToken as e:
            raise BadPageTokenError(f"next: {e}", details={"next": str(e)}) from e
        items, following = self.table.query_page(user_pk(user), "MEM#", start, limit=limit + 1)
        if len(items) > limit:  # one more than asked: the last page is never an empty one
            items, following = items[:limit], {"pk": user_pk(user), "sk": items[limit - 1]["sk"]}
        memories = [Memory.model_validate(_fields(i)) for i in items]
        kept = memories if include_superseded else [m for m in memories if m.status == "active"]
        return kept, cursor.encode(following)

    def search(self, user: str, query: str) -> builtins.list[Memory]:
        """Memories whose text or words match ``query`` (every word of it), newest first."""
        wanted = set(tokens(query))
        lowered = query.lower().strip()
        found = [
            m
            for m in self.list(user, include_superseded=True)
            if (wanted and wanted <= set(m.tokens)) or (lowered and lowered in m.text.lower())
        ]
        return sorted(found, key=lambda m: m.created_at, reverse=True)

    def history(self, user: str, memory_id: str) -> builtins.list[HistoryEntry]:
        self.get(user, memory_id)  # 404 for someone else's or a missing memory
        items = self.table.query(user_pk(user), f"MEMH#{memory_id}#")
        return [
            HistoryEntry.model_validate({k: v for k, v in i.items() if k in ("at", "event", "details")}) for i in items
        ]

    def changes(self, user: str, since_ms: int) -> builtins.list[tuple[str, builtins.list[str]]]:
        """(version, memory ids it changed) of every change made at ``since_ms`` or later, oldest first: one
        query of the change log, as long as the changes (not the memories)."""
        items = self.table.query(log_pk(user), LOG, after=LOG + id_at("v", since_ms))
        return [(i["sk"].removeprefix(LOG), list(i.get("memory_ids", []))) for i in items]

    def page(
        self, user: str, start: dict[str, Any] | None, model: str | None
    ) -> tuple[builtins.list[Memory], dict[str, np.ndarray], dict[str, Any] | None]:
        """One page of the person's active memories (with their ``model`` embeddings), and where the next begins."""
        items, following = self.table.query_page(user_pk(user), "MEM#", start)
        memories, vectors = _decoded(items, model)
        active = [m for m in memories if m.status == "active"]
        return active, {m.memory_id: vectors[m.memory_id] for m in active if m.memory_id in vectors}, following

    def get_many(
        self, user: str, memory_ids: builtins.list[str], model: str | None
    ) -> tuple[builtins.list[Memory], dict[str, np.ndarray]]:
        """These memories as they are now (a deleted one is simply absent), with their ``model`` embeddings."""
        items = self.table.get_many([(user_pk(user), f"MEM#{m}") for m in memory_ids if MEMORY_ID_RE.match(m)])
        return _decoded(items, model)

    def set_vectors(self, user: str, vectors: dict[str, np.ndarray], model: str) -> None:
        """Store embeddings made later (a memory learnt before embeddings were configured, or while they failed)."""
        for memory_id, vector in vectors.items():
            try:
                self.table.add(user_pk(user), f"MEM#{memory_id}", {}, _vector(vector, model), must_exist=True)
            except NotFoundError:  # deleted meanwhile
                continue

    def _embedding(self, text: str) -> dict[str, Any]:
        """The item attributes holding ``text``'s embedding; none when embeddings are off or fail (made later)."""
        if self.embedder is None:
            return {}
        try:
            return _vector(self.embedder.embed([text])[0], self.embedder.name)
        except EmbeddingError as e:
            logger.warning("could not embed a memory now; recall will: %s", e)
            return {}

    def version(self, user: str) -> str:
        """A stamp that changes with every change to the person's memories ("" before the first)."""
        item = self.table.get(user_pk(user), PROFILE)
        return str(item.get("memory_version", "")) if item else ""

    # --- items ------------------------------------------------------------------------------------------------

    def _history(self, user: str, memory_id: str, event: str, now: float, **details: Any) -> dict[str, Any]:
        return {
            "pk": user_pk(user),
            "sk": f"MEMH#{memory_id}#{sortable_id('h')}",
            "at": now,
            "event": event,
            "details": details,
        }

    def _version(self, user: str, *changed: str | Memory) -> builtins.list[dict[str, Any]]:
        """A new memory version, and its entry in the change log naming the memories it changed (written with
        the change itself, so a warm index catches up by reading only what changed)."""
        version = sortable_id("v")
        ids = [c.memory_id if isinstance(c, Memory) else c for c in changed]
        return [
            {"pk": user_pk(user), "sk": PROFILE, "memory_version": version},
            {"pk": log_pk(user), "sk": LOG + version, "memory_ids": ids, "expiration": int(time.time()) + LOG_KEPT_S},
        ]

    def _item(self, memory: Memory) -> dict[str, Any]:
        return {
            "pk": user_pk(memory.user),
            "sk": f"MEM#{memory.memory_id}",
            # rejected_for is a set of strings, kept by credit's ADD alone (a list here would refuse it)
            **memory.model_dump(exclude={"rejected_for"}),
            **({"rejected_for": frozenset(memory.rejected_for)} if memory.rejected_for else {}),
            **self._embedding(memory.text),
        }

    def _pointer(self, memory: Memory) -> dict[str, Any]:
        return {
            "pk": user_pk(memory.user),
            "sk": _pointer_sk(memory.key, memory.text),
            "memory_id": memory.memory_id,
            "value": memory.value,
            "sources": memory.sources,
        }

    # --- writing ----------------------------------------------------------------------------------------------

    def learn(
        self, user: str, text: str, *, source: str = "api", fact: Fact | None = None, literal: bool = False
    ) -> Memory:
        """Remember ``text``: restated if known, superseding the old value of its key, or new; ending what it
        says no longer holds.

        ``fact`` is its (kind, key, value) when already read (a request's statements are read together); how the
        statement holds it (denied, ended, someone else's) is read here either way, unless ``literal``: ``text`` is
        the platform's own account of ``fact`` (a pattern's evidence, "5 周都没有达到目标"), not a person's words,
        and its negations are about the pattern, not the fact."""
        now = self.clock()
        if literal and fact is not None:
            reading = statement.Reading(fact=fact)
        else:
            reading = statement.read(text, self.reader.read if fact is None else (lambda _clause: fact), now=now)
        if fact is None and not literal and reading.fact[1] is None and not reading.ends:
            corrected = self._corrected(user, text, now)
            if corrected is not None:  # "sorry, I meant 7pm": the fact just stated, with the value said now
                reading = statement.Reading(fact=corrected)
        kind, key, value = reading.fact
        pointer = self.table.get(user_pk(user), _pointer_sk(key, text))
        ended = self._held(user, reading, key)
        if pointer is not None and (pointer.get("value") == value if key else True) and not ended:
            return self._restate(user, pointer, source, now)
        memory = Memory(
            memory_id=sortable_id("m"),
            user=user,
            text=text,
            kind=kind,
            key=key,
            value=value,
            tokens=tokens(text),
            created_at=now,
            updated_at=now,
            valid_from=reading.valid_from,
            sources=[source],
        )
        created = self._history(user, memory.memory_id, "created", now, text=text, key=key, value=value, source=source)
        if pointer is not None and key and pointer.get("value") != value:
            ended.append((pointer, "superseded"))  # a new value for the same key: the old one is superseded
        self._count(user, 1)
        try:
            self._write_new(user, memory, created, pointer, ended, text)
        except Exception:
            self._count(user, -1)  # not kept after all: the count follows
            raise
        return memory

    CORRECTS_WITHIN_S = 86_400.0  # a correction is of a fact stated this long ago at most
    RECENT = 10  # memories a correction looks back over for the fact it corrects

    def _corrected(self, user: str, text: str, now: float) -> Fact | None:
        """The fact a short correction makes of the latest fact the person stated ("I run at 6pm", then "sorry, I
        meant 7pm", "不对，是北京", "Not Beijing, Shanghai", "不是上海，是北京"): the value it names, read as that
        fact's key is read (memory/ground.py), other than the value it had. Only a correction of a few words, that
        says no wish, plan or someone else's fact: "No, I mean the weather in Paris" corrects nothing, and "Not sure
        it matters, but I love Porto" is no correction."""
        from toolgen.knowledge import statements as words
        from toolgen.memory.ground import DERIVED

        if len(text) > 80 or any(words.says(c, text) for c in ("irrealis", "other_subject", "stay", "unreal")):
            return None
        denied = re.match(r"^\s*(?:not|不是)\s*([^,，]{1,40}?)\s*[,，]\s*(?:it'?s\s+|but\s+|是|而是)?(.+)$", text, re.I)
        cue = None if denied else words.find("correction", text)
        if denied is None and (cue is None or cue.end() == 0):
            return None
        said = denied.group(2) if denied else text[cue.end() :] if cue else ""
        # its first clause, the value ("2,500" one number: a comma or point between digits is the number's)
        said = re.split(r"\s[—–-]\s|[—–;；。!！，]|(?<!\d)[,.]|[,.](?!\d)", said.strip(), maxsplit=1)[0]
        said = re.sub(r"^(?:it'?s|it is|是)\s*", "", said.strip(), flags=re.I).strip()
        short = len(re.findall(r"[A-Za-z0-9$,.:]+", said)) <= 3 and len(re.findall(r"[\u4e00-\u9fff]", said)) <= 6
        if not said or not short:
            return None
        recent, _ = self.table.query_page(user_pk(user), "MEM#", None, limit=self.RECENT, newest_first=True)
        for item in recent:
            latest = Memory.model_validate(_fields(item))
            if latest.status != "active" or not latest.key:
                continue
            if now - latest.created_at > self.CORRECTS_WITHIN_S or latest.key not in DERIVED:
                return None
            read = DERIVED[latest.key]
            if denied and latest.value not in read(denied.group(1)):
                return None  # "Not X, Y" corrects the fact only when X is what it held
            values = [v for v in read(said) if v != latest.value]
            return (latest.kind, latest.key, values[0]) if values else None
        return None

    def _count(self, user: str, change: int) -> None:
        """Count a memory in (refused past the cap) or out."""
        try:
            bound = {"memories": MAX_MEMORIES_PER_PERSON} if change > 0 else None
            self.table.add(user_pk(user), COUNT, {"memories": change}, below=bound)
        except ConflictError as e:
            raise TooManyMemoriesError(
                f"you keep {MAX_MEMORIES_PER_PERSON} memories, the most one person may: forget some first",
                details={"limit": MAX_MEMORIES_PER_PERSON},
            ) from e

    def _write_new(
        self,
        user: str,
        memory: Memory,
        created: dict[str, Any],
        pointer: dict[str, Any] | None,
        ended: builtins.list[tuple[dict[str, Any], str]],
        text: str,
    ) -> None:
        """A new memory's items, with what it supersedes or ends."""
        key, value, now = memory.key, memory.value, memory.created_at
        if not ended:
            self.table.put_many([self._item(memory), self._pointer(memory), created, *self._version(user, memory)])
            return
        changed = [memory.memory_id, *(old["memory_id"] for old, _ in ended)]
        steps: list[Put | Change] = [Put(self._item(memory)), Put(created)]
        steps += [Put(item) for item in self._version(user, *changed)]
        if key or pointer is None:
            steps.append(Put(self._pointer(memory)))
        for old, event in ended:  # all at once: the new memory never stands beside what it replaces
            steps.append(
                Change(
                    user_pk(user),
                    f"MEM#{old['memory_id']}",
                    must_exist=True,
                    sets={
                        "status": "superseded",
                        "superseded_by": memory.memory_id,
                        "updated_at": now,
                        "valid_until": now,
                    },
                )
            )
            steps.append(Put(self._history(user, old["memory_id"], event, now, by=memory.memory_id, value=value)))
        self.table.transact(steps)
        for old, event in ended:
            if event == "ended" and old["sk"] != _pointer_sk(key, text):
                self.table.delete(user_pk(user), old["sk"])  # nothing holds that fact now

    def _held(
        self, user: str, reading: statement.Reading, key: str | None
    ) -> builtins.list[tuple[dict[str, Any], str]]:
        """The pointers of the facts ``reading`` ends that the person holds now (not its own key's: a new value
        supersedes that one anyway)."""
        found = []
        for ended_key, ended_value in reading.ends:
            if key and family(ended_key) == family(key):
                continue
            pointer = self.table.get(user_pk(user), _pointer_sk(ended_key, ""))
            if pointer is not None and (ended_value is None or pointer.get("value") == ended_value):
                found.append((pointer, "ended"))
        return found

    def _restate(self, user: str, pointer: dict[str, Any], source: str, now: float) -> Memory:
        """The same fact said again: a confirmation (its age counts from now), in its history; a fact once found
        invalid is current again, with this statement as the evidence."""
        memory_id, sources = pointer["memory_id"], list(pointer.get("sources", []))
        if source in sources and source != "api":  # the same request read twice (API, then worker): nothing new
            return self.get(user, memory_id)
        if source not in sources:
            sources.append(source)
        changes: dict[str, Any] = {"sources": sources, "updated_at": now, "confirmed_at": now}
        memory = self.get(user, memory_id)
        history = [self._history(user, memory_id, "restated", now, source=source)]
        if memory.verification == "invalid":
            changes.update(
                {"verification": "verified", "verified_at": now, "verification_source": f"restated ({source})"}
            )
            history.append(self._history(user, memory_id, "reinstated", now, source=source))
        updated = self.table.update(user_pk(user), f"MEM#{memory_id}", changes)
        self.table.put_many([{**pointer, "sources": sources}, *history, *self._version(user, memory_id)])
        return Memory.model_validate(_fields(updated))

    def edit(self, user: str, memory_id: str, text: str) -> Memory:
        """New words for a memory; its fact is read again from them."""
        memory = self.get(user, memory_id)
        now = self.clock()
        kind, key, value = self.reader.read(text)
        edited = memory.model_copy(
            update={"text": text, "kind": kind, "key": key, "value": value, "tokens": tokens(text), "updated_at": now}
        )
        history = self._history(user, memory_id, "edited", now, before=memory.text, after=text, key=key, value=value)
        items, stale = [self._item(edited), history, *self._version(user, memory_id)], []
        if memory.status == "active":  # an active memory owns its pointer: move it with the fact
            items.append(self._pointer(edited))
            old = _pointer_sk(memory.key, memory.text)
            if old != _pointer_sk(key, text):
                stale.append((user_pk(user), old))
        self.table.put_many(items, stale)
        return edited

    def delete(self, user: str, memory_id: str) -> None:
        """Forget a memory and its history (the person asked: nothing of it is kept)."""
        memory = self.get(user, memory_id)
        deleted = self.table.delete(user_pk(user), f"MEM#{memory_id}")
        self.table.delete_prefix(user_pk(user), f"MEMH#{memory_id}#")
        pointer = _pointer_sk(memory.key, memory.text)
        item = self.table.get(user_pk(user), pointer)
        if item and item.get("memory_id") == memory_id:
            self.table.delete(user_pk(user), pointer)
        self.table.put_many(self._version(user, memory_id))
        if deleted:  # a concurrent delete of the same memory counts it down once
            self._count(user, -1)

    def credit(
        self, user: str, memory_ids: builtins.list[str], counters: dict[str, int], reason: str, tool: str | None = None
    ) -> None:
        """Add reward counters (uses, turns, interventions) to memories, each change in its history; ``tool``: the
        tool a rejected suggestion was on, for which alone its rejection counts (scoring.evidence)."""
        unknown = set(counters) - set(COUNTERS)
        if unknown:
            raise InvalidInputError(f"unknown reward counters {sorted(unknown)}")
        now = self.clock()
        history = []
        for memory_id in memory_ids:
            try:  # atomic counters: concurrent credits add up
                scoped: dict[str, int | float | frozenset[str]] = {"rejected_for": frozenset({tool})} if tool else {}
                self.table.add(
                    user_pk(user), f"MEM#{memory_id}", {**counters, **scoped}, {"last_used_at": now}, must_exist=True
                )
            except NotFoundError:  # deleted meanwhile: nothing to credit
                continue
            history.append(self._history(user, memory_id, "rewarded", now, reason=reason, **counters))
        if history:
            self.table.put_many([*history, *self._version(user, *(h["sk"].split("#")[1] for h in history))])

    def mark_used(self, user: str, memory_ids: builtins.list[str], tool_id: str) -> None:
        """Record that these memories shaped ``tool_id`` (so its use and feedback are credited to them)."""
        now = self.clock()
        for memory_id in memory_ids:
            try:
                memory = self.get(user, memory_id)
            except NotFoundError:
                continue
            tools = list(dict.fromkeys([*memory.tools, tool_id]))
            self.table.update(user_pk(user), f"MEM#{memory_id}", {"tools": tools, "last_used_at": now})

    def verify(self, user: str, memory_id: str, valid: bool, source: str | None) -> Memory:
        """Record a check of the fact: verified now, or invalid (never recalled again)."""
        self.get(user, memory_id)
        now = self.clock()
        state = "verified" if valid else "invalid"
        changes = {
            "verification": state,
            "verified_at": now,
            "verification_source": source or "person",
            "updated_at": now,
        }
        updated = self.table.update(user_pk(user), f"MEM#{memory_id}", changes)
        event = "verified" if valid else "invalidated"
        self.table.put_many(
            [self._history(user, memory_id, event, now, source=source or "person"), *self._version(user, memory_id)]
        )
        return Memory.model_validate(_fields(updated))

    def forget_user(self, user: str) -> int:
        """Delete every memory item of the person (memories, history, pointers, profile); how many."""
        count = 0
        for prefix in ("MEM#", "MEMH#", "MEMKEY#", "MEMTEXT#", PROFILE, COUNT):
            count += self.table.delete_prefix(user_pk(user), prefix)
        count += self.table.delete_prefix(log_pk(user))
        return count
