"""Memory benchmarks: recall at 1k / 10k / 100k memories for one person, beside rank-bm25 in the same run,
plus the store's query time and the update latency on the embedded default.

- Ranking: toolgen's index (built once per person and memory version, as a warm worker keeps it) against
  rank-bm25's BM25Okapi (what a developer would reach for) over the same tokenised memories and prompts.
  Build times are reported on their own, like the store's query time.
- Ranking by meaning too (MEMORY_EMBEDDING_MODEL): the same index with a 256-dimension embedding per memory
  (MEMORY_EMBEDDING_DIMENSIONS=256), the request's embedding given; the embedding call itself is the provider's
  network time and is not measured here.
- Store: reading the person's memories from DynamoDB (moto's server) at 1k and 10k (and 100k with --full).
- Update: POST /v1/memories (learn) and PATCH /v1/memories/{id} (edit) over HTTP on `toolgen serve`'s platform.
Results are merged into bench/results.json.
"""

from __future__ import annotations

import argparse
import heapq
import os
import random
import statistics
import time

import numpy as np
from rank_bm25 import BM25Okapi
from results import save  # bench/results.py, beside this script

from toolgen.intent import classify
from toolgen.memory.index import MemoryIndex
from toolgen.memory.scoring import MemoryConfig
from toolgen.memory.text import tokens
from toolgen.models import Memory

TEMPLATES = [
    "I usually {verb} {thing} on {day}",
    "my {thing} goal is {n} {unit}",
    "I like {thing} with {thing2}",
    "remember that {thing} is near {place}",
    "I prefer {thing} over {thing2}",
    "我喜欢在{place}{verb_zh}{thing_zh}",
]
PROMPTS = [
    "track my {thing} habit",
    "a {thing} log for {day}",
    "help me plan {thing} near {place}",
    "我想记录{thing_zh}",
    "rank {thing} and {thing2}",
]


def vocabulary(rng: random.Random, size: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(4, 9))) for _ in range(size)]


def fill(template: str, rng: random.Random, words: list[str], zh: list[str]) -> str:
    def zipf() -> str:  # a few common words, a long tail of rare ones
        return words[min(int(rng.paretovariate(1.1)) - 1, len(words) - 1)]

    return template.format(
        verb=zipf(),
        thing=zipf(),
        thing2=zipf(),
        day=rng.choice(["monday", "friday", "sunday"]),
        n=rng.randint(1, 50),
        unit=zipf(),
        place=zipf(),
        verb_zh=rng.choice(zh),
        thing_zh=rng.choice(zh) + rng.choice(zh),
    )


def corpus(count: int, seed: int = 7) -> tuple[list[Memory], list[str]]:
    rng = random.Random(seed)
    words = vocabulary(rng, 20_000)
    zh = list("跑步读书喝水咖啡音乐电影旅行上海北京成都早晨晚上周末公园")
    now = time.time()
    memories = []
    for i in range(count):
        text = fill(rng.choice(TEMPLATES), rng, words, zh)
        memories.append(
            Memory(
                memory_id=f"m{i:020d}",
                user="bench",
                text=text,
                tokens=tokens(text),
                created_at=now - rng.uniform(0, 90 * 86_400),
                uses=rng.choice([0, 0, 0, 1, 5, 20]),
                turns=rng.choice([0, 0, 1]),
            )
        )
    prompts = []
    for i in range(200):  # half about something the person said (a few of a memory's words), half anything
        if i % 2 == 0:
            source = rng.choice(memories).tokens
            prompts.append("track my " + " ".join(rng.sample(source, min(len(source), rng.randint(1, 3)))))
        else:
            prompts.append(fill(rng.choice(PROMPTS), rng, words, zh))
    return memories, prompts


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def bench_ranking(count: int) -> dict[str, float]:
    memories, prompts = corpus(count)
    config, now = MemoryConfig(), time.time()
    started = time.perf_counter()
    index = MemoryIndex(memories, config)
    build_ms = (time.perf_counter() - started) * 1000
    intents = {p: classify(p) for p in prompts}
    prompt_tokens = {p: tokens(p) for p in prompts}
    for p in prompts[:20]:  # warm-up
        index.rank(prompt_tokens[p], intents[p], config, now)
    ours = []
    for p in prompts:
        started = time.perf_counter()
        index.rank(prompt_tokens[p], intents[p], config, now)
        ours.append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    bm25 = BM25Okapi([m.tokens or ["_"] for m in memories])
    bm25_build_ms = (time.perf_counter() - started) * 1000
    theirs = []
    for p in prompts:
        started = time.perf_counter()
        scores = bm25.get_scores(prompt_tokens[p])
        heapq.nlargest(config.top_k, range(len(scores)), key=scores.__getitem__)
        theirs.append((time.perf_counter() - started) * 1000)
    return {
        "index_build_ms": round(build_ms, 1),
        "recall_p50_ms": round(statistics.median(ours), 3),
        "recall_p95_ms": round(percentile(ours, 0.95), 3),
        "bm25_build_ms": round(bm25_build_ms, 1),
        "bm25_p50_ms": round(statistics.median(theirs), 3),
        "bm25_p95_ms": round(percentile(theirs, 0.95), 3),
    }


def bench_semantic(count: int, dimensions: int = 256) -> dict[str, float]:
    """Recall with words and meaning: one matrix product over unit rows, plus everything bench_ranking times."""
    memories, prompts = corpus(count)
    config, now = MemoryConfig(), time.time()
    rng = np.random.default_rng(7)
    raw = rng.standard_normal((count, dimensions)).astype(np.float32)
    vectors = {m.memory_id: raw[i] for i, m in enumerate(memories)}
    started = time.perf_counter()
    index = MemoryIndex(memories, config, vectors)
    build_ms = (time.perf_counter() - started) * 1000
    queries = []
    for i in range(len(prompts)):  # half close to one memory's meaning, half anywhere
        noise = rng.standard_normal(dimensions).astype(np.float32)
        query = raw[rng.integers(count)] + 0.5 * noise if i % 2 == 0 else noise
        queries.append(query / np.linalg.norm(query))
    intents = {p: classify(p) for p in prompts}
    prompt_tokens = {p: tokens(p) for p in prompts}
    for p, q in list(zip(prompts, queries, strict=True))[:20]:
        index.rank(prompt_tokens[p], intents[p], config, now, query=q)
    times = []
    for p, q in zip(prompts, queries, strict=True):
        started = time.perf_counter()
        index.rank(prompt_tokens[p], intents[p], config, now, query=q)
        times.append((time.perf_counter() - started) * 1000)
    assert index.matrix is not None
    return {
        "build_ms": round(build_ms, 1),
        "p50_ms": round(statistics.median(times), 3),
        "p95_ms": round(percentile(times, 0.95), 3),
        "matrix_mb": round(index.matrix.nbytes / 2**20, 1),
    }


def bench_store(count: int) -> float:
    """Median time to read one person's memories from DynamoDB on moto's server (ms)."""
    from toolgen import aws
    from toolgen.local.emulator import Emulator
    from toolgen.table import DynamoTable, user_pk

    emulator = Emulator()
    emulator.start()
    try:
        for name, value in emulator.environment().items():
            os.environ[name] = value
        aws.reset_clients()
        ddb = emulator.client("dynamodb")
        ddb.create_table(
            TableName=f"bench{count}",
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
            ],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        )
        table = DynamoTable(f"bench{count}")
        memories, _ = corpus(count)
        encode = DynamoTable._encode
        for start in range(0, count, 25):
            batch = [
                {"PutRequest": {"Item": encode({"pk": user_pk("bench"), "sk": f"MEM#{m.memory_id}", **m.model_dump()})}}
                for m in memories[start : start + 25]
            ]
            ddb.batch_write_item(RequestItems={f"bench{count}": batch})
        times = []
        for _ in range(3):
            started = time.perf_counter()
            assert len(table.query(user_pk("bench"), "MEM#")) == count
            times.append((time.perf_counter() - started) * 1000)
        return round(statistics.median(times), 1)
    finally:
        emulator.stop()
        aws.reset_clients()


def bench_updates(samples: int = 100) -> dict[str, float]:
    """p50/p95 of memory updates on the embedded default: the store's own writes against moto's DynamoDB
    (learn, edit, credit), and the whole HTTP round trip through the local API function (ms)."""
    from toolgen import auth
    from toolgen.client import Client
    from toolgen.local.serve import LocalPlatform
    from toolgen.memory import DynamoMemoryStore
    from toolgen.table import DynamoTable

    local = LocalPlatform(port=0, secret="bench")
    local.start()
    try:
        for name, value in local.emulator.environment().items():
            os.environ[name] = value
        from toolgen import aws

        aws.reset_clients()
        store = DynamoMemoryStore(DynamoTable(local.resources.table))
        store_times: list[float] = []
        for i in range(samples):
            for operation in ("learn", "edit", "credit"):
                started = time.perf_counter()
                if operation == "learn":
                    memory = store.learn("store", f"note {i}: I like tea {i}")
                elif operation == "edit":
                    store.edit("store", memory.memory_id, f"note {i}: coffee")
                else:
                    store.credit("store", [memory.memory_id], {"uses": 1}, reason="bench")
                store_times.append((time.perf_counter() - started) * 1000)
        client = Client(url=local.url, token=auth.mint("bench", "bench"))
        http_times: list[float] = []
        for i in range(samples):
            started = time.perf_counter()
            created = client.api("POST", "/v1/memories", body={"text": f"note number {i}: I like tea {i}"})
            http_times.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            client.api("PATCH", f"/v1/memories/{created['memory_id']}", body={"text": f"note {i}: I like coffee"})
            http_times.append((time.perf_counter() - started) * 1000)
    finally:
        local.stop()
    return {
        "memory_update_p50_ms": round(statistics.median(store_times), 1),
        "memory_update_p95_ms": round(percentile(store_times, 0.95), 1),
        "memory_update_http_p50_ms": round(statistics.median(http_times), 1),
        "memory_update_http_p95_ms": round(percentile(http_times, 0.95), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--full", action="store_true", help="also time the store at 100k memories (minutes)")
    args = parser.parse_args()
    results: dict[str, object] = {}
    ours = f"{'memories':>9} {'build ms':>9} {'p50 ms':>8} {'p95 ms':>8}"
    print(f"{ours} | {'bm25 build':>10} {'bm25 p50':>9} {'bm25 p95':>9}")
    for count, label in ((1_000, "1k"), (10_000, "10k"), (100_000, "100k")):
        r = bench_ranking(count)
        print(
            f"{label:>9} {r['index_build_ms']:>9} {r['recall_p50_ms']:>8} {r['recall_p95_ms']:>8} | "
            f"{r['bm25_build_ms']:>10} {r['bm25_p50_ms']:>9} {r['bm25_p95_ms']:>9}"
        )
        results[f"recall_p95_ms_{label}"] = r["recall_p95_ms"]
        results[f"recall_p50_ms_{label}"] = r["recall_p50_ms"]
        results[f"recall_index_build_ms_{label}"] = r["index_build_ms"]
        results[f"recall_bm25_p95_ms_{label}"] = r["bm25_p95_ms"]
        results[f"recall_bm25_build_ms_{label}"] = r["bm25_build_ms"]
    print("with embeddings, 256 dimensions:")
    for count, label in ((1_000, "1k"), (10_000, "10k"), (100_000, "100k")):
        r = bench_semantic(count)
        print(f"{label:>9} {r['build_ms']:>9} {r['p50_ms']:>8} {r['p95_ms']:>8}   matrix {r['matrix_mb']} MB")
        results[f"recall_semantic_p50_ms_{label}"] = r["p50_ms"]
        results[f"recall_semantic_p95_ms_{label}"] = r["p95_ms"]
        results[f"recall_semantic_build_ms_{label}"] = r["build_ms"]
    for count, label in [(1_000, "1k"), (10_000, "10k")] + ([(100_000, "100k")] if args.full else []):
        results[f"memory_store_query_ms_{label}"] = bench_store(count)
        print(f"store query, {label} memories: {results[f'memory_store_query_ms_{label}']} ms")
    updates = bench_updates()
    results.update(updates)
    store_p50, store_p95 = updates["memory_update_p50_ms"], updates["memory_update_p95_ms"]
    http_p50, http_p95 = updates["memory_update_http_p50_ms"], updates["memory_update_http_p95_ms"]
    print(f"memory update, the store on the embedded default: p50 {store_p50} ms, p95 {store_p95} ms")
    print(f"memory update, the whole HTTP round trip: p50 {http_p50} ms, p95 {http_p95} ms")
    print(f"wrote {save(results)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
