"""Chunked runs (simulate, tournament): the output folder and its manifest, chunks run locally
or on a Dask cluster, each stored atomically, and the final Parquet files written whole.

A run's folder holds `manifest.json` (what the run is, written first), `chunks/NNNNNN/` (one
finished chunk each, renamed into place only when complete) and, at the end, the tables. A
chunk is a pure function of its job, so an interrupted run resumes by computing the chunks
that are missing.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterable

from ..core.errors import UserError

MANIFEST = "manifest.json"


def write_json(path: str, data: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2, sort_keys=True)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def open_run(out_dir: str, identity: dict, chunk_size: int | None, resume: bool,
             manifest: dict) -> int | None:
    """Check the output folder: a new run writes its manifest; a resumed one must be the same
    run (identity). Returns the resumed run's chunk size (None for a new run)."""
    manifest_path = os.path.join(out_dir, MANIFEST)
    exists = os.path.isdir(out_dir) and os.listdir(out_dir)
    if exists and not resume:
        raise UserError(f"output folder {out_dir!r} is not empty (use --resume to continue "
                        "a run there, or choose another folder)")
    if exists and not os.path.isfile(manifest_path):
        raise UserError(f"cannot resume in {out_dir!r}: it holds no {MANIFEST}")
    if exists:
        with open(manifest_path, encoding="utf-8") as handle:
            old = json.load(handle)
        for key, value in identity.items():
            if old.get(key) != value:
                raise UserError(f"cannot resume: the run in {out_dir!r} has a different "
                                f"{key.replace('_', '-')} ({old.get(key)!r})")
        if chunk_size is not None and chunk_size != old["chunk_size"]:
            raise UserError(f"cannot resume: the run in {out_dir!r} uses --chunk-size "
                            f"{old['chunk_size']}")
        return old["chunk_size"]
    os.makedirs(os.path.join(out_dir, "chunks"), exist_ok=True)
    write_json(manifest_path, manifest | {"complete": False})
    return None


def close_run(out_dir: str, manifest: dict, info: dict) -> None:
    """Write run.json, mark the manifest complete and remove the chunk folders."""
    write_json(os.path.join(out_dir, "run.json"), info)
    write_json(os.path.join(out_dir, MANIFEST), manifest | {"complete": True})
    shutil.rmtree(os.path.join(out_dir, "chunks"), ignore_errors=True)


def is_complete(out_dir: str) -> bool:
    path = os.path.join(out_dir, MANIFEST)
    if not os.path.isfile(path):
        return False
    with open(path, encoding="utf-8") as handle:
        return bool(json.load(handle).get("complete"))


def chunk_dir(out_dir: str, index: int) -> str:
    return os.path.join(out_dir, "chunks", f"{index:06d}")


def finished_chunks(out_dir: str, n_chunks: int) -> list[str]:
    """The chunk folders of a run whose chunks are all finished (else a UserError)."""
    chunks = [chunk_dir(out_dir, i) for i in range(n_chunks)]
    missing = [c for c in chunks if not os.path.isdir(c)]
    if missing:
        raise UserError(f"{len(missing)} chunks are not finished; run again with --resume")
    return chunks


def store_chunk(out_dir: str, index: int, files: dict[str, bytes]) -> None:
    """Write a chunk's files under a temporary name, then rename the folder into place."""
    final = chunk_dir(out_dir, index)
    if os.path.isdir(final):
        return
    tmp = os.path.join(out_dir, "chunks", f".tmp-{index:06d}-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for name, data in files.items():
        with open(os.path.join(tmp, name), "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    os.rename(tmp, final)


def chunk_storer(out_dir: str, on_done: Callable[[int], None]) -> Callable[[tuple], None]:
    """store(result) for a run's chunks: a job's (index, count, files) into the folder, then
    on_done(count)."""
    def store(result: tuple) -> None:
        index, count, files = result
        store_chunk(out_dir, index, files)
        on_done(count)

    return store


def stream_parquet(tables: Iterable, out: str, info: dict) -> None:
    """Write pyarrow tables (one schema) into one Parquet file carrying the run's facts under
    the metadata key `euchre_sim`; written under a temporary name, then renamed."""
    import pyarrow.parquet as pq

    tmp = out + ".tmp"
    writer = None
    for table in tables:
        if writer is None:
            meta = dict(table.schema.metadata or {})
            meta[b"euchre_sim"] = json.dumps(info, sort_keys=True).encode()
            writer = pq.ParquetWriter(tmp, table.schema.with_metadata(meta))
        writer.write_table(table.replace_schema_metadata(writer.schema.metadata))
    if writer is not None:
        writer.close()
        os.replace(tmp, out)


def run_jobs_local(jobs: list, compute: Callable, store: Callable, workers: int) -> None:
    """compute(job) for every job on `workers` local processes, store(result) as each ends."""
    from concurrent.futures import FIRST_COMPLETED, wait

    from .parallel import worker_pool

    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            store(compute(job))
        return
    pool = worker_pool(workers)
    pending = {pool.submit(compute, job) for job in jobs}
    try:
        while pending:  # finished futures are dropped at once, and their results with them
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                store(future.result())
    finally:
        # After Ctrl-C or a failed chunk, chunks not started are dropped and running ones end
        # on their own (workers ignore Ctrl-C; a second one leaves at once, and the workers
        # follow their parent): a worker killed while writing its result to the executor's
        # queue could leave the executor reading it forever. Finished chunks are kept.
        pool.shutdown(wait=True, cancel_futures=True)


def run_jobs_dask(jobs: list, compute: Callable, store: Callable, scheduler: str, workers: int,
                  threads: int = 1, name: str = "euchre-chunk") -> None:
    """compute(job) as tasks on a Dask cluster: `tcp://HOST:PORT`, or `local` for a
    LocalCluster of `workers` processes of `threads` threads each (jobs on threads of one
    process share its transposition table). Jobs are pure, so a lost worker's tasks are just
    computed again elsewhere; results come back as bytes and store(result) keeps them here."""
    try:
        from dask.base import tokenize
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise UserError("--scheduler needs dask: pip install 'euchre-sim[distributed]'") \
            from None
    cluster = None
    try:
        if scheduler == "local":
            cluster = LocalCluster(n_workers=workers, threads_per_worker=threads,
                                   processes=True, dashboard_address=None)
            client = Client(cluster)
        else:
            try:
                client = Client(scheduler, timeout="10s")
            except OSError as err:
                raise UserError(f"cannot reach the Dask scheduler {scheduler!r}: {err}") \
                    from None
        with client:
            # a key names everything the job depends on, so runs sharing a cluster never
            # share results unless they are the same computation
            keys = [f"{name}-{job.index}-{tokenize(job)}" for job in jobs]
            futures = client.map(compute, jobs, key=keys, retries=3)
            for future in as_completed(futures):
                store(future.result())
                future.release()
    finally:
        if cluster is not None:
            cluster.close()
