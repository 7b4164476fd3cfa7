"""Chunked runs (simulate, tournament): the output folder and its manifest, chunks run locally
or on a Dask cluster, each stored atomically, and the final Parquet files written whole.

A run's folder holds `manifest.json` (what the run is, written first), `chunks/NNNNNN/` (one
finished chunk each, renamed into place only when complete) and, at the end, the tables. A
chunk is a pure function of its job, so an interrupted run resumes by computing the chunks
that are missing.

A chunk's folder also holds `commit.json`: the sha256 of every file it stored, the run's key
(a hash of its identity and chunk size: `ChunkedPlan.run_key`) and the chunk's index. A
resumed run and the final merge check each chunk against it and compute again one that is
damaged (a crash or a full disk can leave a file cut short) or not this run's own (a folder
copied from another run, or chunks of another size); one stored before these were kept cannot
be checked, so it is computed again too: chunks are pure, so that costs time, never results.
A finished run's manifest records the sha256 of every table it wrote, and only those tables,
all matching, make the run complete.
An OSError writing the run (a full disk) is one line naming the folder (`writing_run`); every
file is written under a temporary name, fsynced and renamed, so finished chunks stay valid.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import hashlib
import itertools
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator

from .. import __version__
from ..core.errors import FieldError, UserError
from ..core.files import loads
from ..core.limits import MAX_CHUNK, MAX_CHUNKS, at_most
from ..core.output import json_text
from .code_digest import code_digest

MANIFEST = "manifest.json"
CODE_KEY = "code_sha256"  # in a run's identity: the digest of the code that computes it
COMMIT = "commit.json"  # in each chunk's folder: {"sha256": {name: digest}, "run": key, "index": i}
_NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
_READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


def write_error(out_dir: str, err: OSError) -> UserError:
    """The one line for a failed write to a run's folder: the folder, why, and what to do."""
    reason = os.strerror(err.errno) if err.errno else str(err)
    advice = ("free space" if err.errno in _NO_SPACE else
              "make it writable" if err.errno in _READ_ONLY else "fix that")
    return UserError(f"cannot write to {out_dir!r}: {reason} — {advice}, then rerun with "
                     "--resume")


@contextlib.contextmanager
def writing_run(out_dir: str) -> Iterator[None]:
    """Turn a failed system call inside (a full disk, a read-only folder, here or in a worker)
    into write_error's UserError; other errors, and a lost connection, pass through."""
    try:
        yield
    except OSError as err:
        if err.errno is None or isinstance(err, (ConnectionError, TimeoutError)):
            raise
        raise write_error(out_dir, err) from err


def write_file(path: str, data: bytes) -> None:
    """Write and fsync one file (a chunk's file or its commit record)."""
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _sync_folder(path: str) -> None:
    """Make the renames inside `path` durable (POSIX: a folder is fsynced through a handle)."""
    if os.name != "posix":
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _discard(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)


def write_json(path: str, data: dict) -> None:
    tmp = path + ".tmp"
    try:
        write_file(tmp, json_text(data, indent=2, sort_keys=True).encode())
        os.replace(tmp, path)
    finally:
        _discard(tmp)
    _sync_folder(os.path.dirname(path) or ".")


LOCK = ".lock"  # held (flock) by the process writing a run folder, released by its end
_HELD: dict[str, int] = {}  # run folder -> the open lock's descriptor, for the process's life


def _hold_folder(out_dir: str) -> None:
    """Lock the run folder for this process (made if missing): a second run given the same
    --out while this one writes is one line, not a clash of their chunks. The kernel lets go
    when the process ends, killed or not."""
    key = os.path.realpath(out_dir)
    if key in _HELD:
        return
    with writing_run(out_dir):
        os.makedirs(out_dir, exist_ok=True)
        fd = os.open(os.path.join(out_dir, LOCK), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise UserError(f"another run is writing {out_dir!r} (the same --out): wait for it, "
                        "or choose another folder") from None
    _HELD[key] = fd


def run_files(out_dir: str) -> list[str]:
    """The names in a run folder, its lock left out."""
    return [name for name in os.listdir(out_dir) if name != LOCK]


def open_run(out_dir: str, identity: dict, chunk_size: int | None, resume: bool,
             manifest: dict) -> int | None:
    """Check the output folder (held by this process: `_hold_folder`): a new run writes its
    manifest; a resumed one must be the same run (identity) with a sound manifest. Returns the
    resumed run's chunk size (None for a new run)."""
    manifest_path = os.path.join(out_dir, MANIFEST)
    exists = os.path.isdir(out_dir) and run_files(out_dir)
    if not exists or resume:  # a folder of other things is refused below, left as it was
        _hold_folder(out_dir)
        exists = run_files(out_dir)  # another run may have started there meanwhile
    if exists and not resume:
        raise UserError(f"output folder {out_dir!r} is not empty (use --resume to continue "
                        "a run there, or choose another folder)")
    if exists and not os.path.isfile(manifest_path):
        raise UserError(f"cannot resume in {out_dir!r}: it holds no {MANIFEST}")
    with writing_run(out_dir):
        if exists:
            old = read_manifest(out_dir)
            if old.get(CODE_KEY) != identity.get(CODE_KEY):
                raise UserError(f"cannot resume: the run in {out_dir!r} was computed by other "
                                "code (another euchre-sim version, or an edited install); "
                                "start it afresh in another folder")
            for key, value in identity.items():
                if old.get(key) != value:
                    raise UserError(f"cannot resume: the run in {out_dir!r} has a different "
                                    f"{key.replace('_', '-')} ({old.get(key)!r})")
            if chunk_size is not None and chunk_size != old["chunk_size"]:
                raise UserError(f"cannot resume: the run in {out_dir!r} uses --chunk-size "
                                f"{old['chunk_size']}")
            for name in os.listdir(out_dir):  # a table whose writer was killed
                if name.endswith(".tmp"):
                    _discard(os.path.join(out_dir, name))
            return old["chunk_size"]
        os.makedirs(out_dir, exist_ok=True)
        write_json(manifest_path, manifest | {"complete": False})
        os.makedirs(os.path.join(out_dir, "chunks"), exist_ok=True)
    return None


def read_manifest(out_dir: str) -> dict:
    """A resumed run's manifest, checked: one line naming it when it is not an object with a
    whole `chunk_size` from 1."""
    try:
        with open(os.path.join(out_dir, MANIFEST), "rb") as handle:
            old = loads(handle.read())
    except ValueError as err:
        fault = f"not JSON: {err}"
    else:
        size = old.get("chunk_size") if isinstance(old, dict) else None
        fault = (None if isinstance(size, int) and not isinstance(size, bool) and size >= 1
                 else "not an object" if not isinstance(old, dict)
                 else "its chunk_size is not a whole number from 1")
    if fault is not None:
        raise UserError(f"cannot resume in {out_dir!r}: its {MANIFEST} is damaged ({fault}; "
                        "start the run again in an empty folder)")
    return old


def close_run(out_dir: str, manifest: dict, info: dict) -> None:
    """Write run.json, mark the manifest complete with the sha256 of every table (and
    run.json) in the folder, and remove the chunk folders."""
    with writing_run(out_dir):
        write_json(os.path.join(out_dir, "run.json"), info)
        digests = {name: _file_digest(os.path.join(out_dir, name))
                   for name in sorted(run_files(out_dir))
                   if name != MANIFEST and os.path.isfile(os.path.join(out_dir, name))}
        write_json(os.path.join(out_dir, MANIFEST),
                   manifest | {"complete": True, "sha256": digests})
    shutil.rmtree(os.path.join(out_dir, "chunks"), ignore_errors=True)
    _let_go(out_dir)


def _let_go(out_dir: str) -> None:
    """A finished run's folder: its lock removed and released."""
    fd = _HELD.pop(os.path.realpath(out_dir), None)
    if fd is not None:
        _discard(os.path.join(out_dir, LOCK))
        os.close(fd)


def is_complete(out_dir: str) -> bool:
    """Whether the run in `out_dir` is finished: its manifest says so and every table it
    recorded is there with its checksum (else a resume writes them again)."""
    try:
        with open(os.path.join(out_dir, MANIFEST), "rb") as handle:
            manifest = loads(handle.read())
        digests = manifest["sha256"]
        return manifest["complete"] is True and bool(digests) and all(
            _file_digest(os.path.join(out_dir, name)) == digest
            for name, digest in digests.items())
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return False


def _file_digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


class ChunkedPlan:
    """What a frozen dataclass plan run in chunks shares. It names `out_dir`, `chunk_size` (as
    asked, or None), `job(index, first, count)` (a chunk's job, with `index` and `count`),
    `identity()` (what a resumed run must match), and the properties `total` (items to do)
    and `chunk_items` (per chunk). Its chunks and jobs are made as they are needed, so the
    memory a run holds does not grow with its size."""

    def check_size(self, field: str, maximum: int) -> None:
        """A FieldError when the run asks for more than `maximum` items (`field`), a chunk of
        more than MAX_CHUNK or more than MAX_CHUNKS chunks."""
        at_most(field, self.total, maximum)
        if self.chunk_size is not None:
            at_most("chunk_size", self.chunk_size, MAX_CHUNK)
        if self.n_chunks > MAX_CHUNKS:
            raise FieldError("{chunk_size} {size:,} makes {n:,} chunks, more than {most:,}: "
                             "give a larger {chunk_size}", size=self.chunk_items,
                             n=self.n_chunks, most=MAX_CHUNKS)

    @property
    def n_chunks(self) -> int:
        return -(-self.total // self.chunk_items)

    def chunks(self) -> Iterator[tuple[int, int, int]]:
        """(index, first, count) of every chunk."""
        size = self.chunk_items
        for i in range(self.n_chunks):
            yield i, i * size, min(size, self.total - i * size)

    def jobs(self) -> Iterator:
        """Every chunk's job, in order."""
        return (self.job(*chunk) for chunk in self.chunks())

    def _missing(self) -> Iterator[tuple[int, int, int]]:
        return (c for c in self.chunks() if not os.path.isdir(chunk_dir(self.out_dir, c[0])))

    def pending(self) -> Iterator:
        """The jobs whose chunk is not stored yet."""
        return (self.job(*chunk) for chunk in self._missing())

    def pending_count(self) -> int:
        """Items not stored yet."""
        return sum(count for _, _, count in self._missing())

    @property
    def run_key(self) -> str:
        """What each chunk's commit record names: the sha256 of the run's identity and chunk
        size (a chunk stored by any other run, or cut to another size, differs)."""
        identity = self.run_identity() | {"chunk_size": self.chunk_items}
        return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()

    def run_identity(self) -> dict:
        """`identity()` and the digest of the code that computes it (`code_digest`): a run
        resumed by another version, or an edited install, computes afresh."""
        return self.identity() | {CODE_KEY: code_digest()}

    def manifest(self) -> dict:
        return self.run_identity() | {"chunk_size": self.chunk_items, "version": __version__}

    def opened(self, resume: bool = False, warn: Callable[[str], None] | None = None):
        """The plan, its folder checked and its manifest written (or checked: `open_run`);
        a resume removes every stored chunk that is damaged or not this run's own (warn(line)
        names each: `drop_damaged`). A resumed run keeps its chunk size unless the plan names
        one (then they must agree)."""
        resumed = open_run(self.out_dir, self.run_identity(), self.chunk_size, resume,
                           self.manifest())
        if resumed is None:
            return self
        plan = dataclasses.replace(self, chunk_size=resumed)
        with writing_run(self.out_dir):
            drop_damaged(self.out_dir, plan.run_key, warn)
        return plan


def chunk_dir(out_dir: str, index: int) -> str:
    return os.path.join(out_dir, "chunks", f"{index:06d}")


def finished_chunks(out_dir: str, n_chunks: int) -> list[str]:
    """The chunk folders of a run whose chunks are all finished (else a UserError)."""
    chunks = [chunk_dir(out_dir, i) for i in range(n_chunks)]
    missing = [c for c in chunks if not os.path.isdir(c)]
    if missing:
        raise UserError(f"{len(missing)} chunks are not finished; run again with --resume")
    return chunks


def checked_chunks(plan: ChunkedPlan, recompute: Callable[[], None],
                   warn: Callable[[str], None] | None = None) -> list[str]:
    """The chunk folders of a run, each checked against its commit record just before the
    merge: damaged ones and others' are removed (warn names each) and recompute() computes
    every missing chunk, which is then checked once more (damaged again: a UserError, the
    disk is at fault)."""
    out_dir, n_chunks, key = plan.out_dir, plan.n_chunks, plan.run_key
    with writing_run(out_dir):
        drop_damaged(out_dir, key, warn)
        missing = [i for i in range(n_chunks) if not os.path.isdir(chunk_dir(out_dir, i))]
        if missing:
            recompute()
        for index in missing:
            fault = chunk_fault(chunk_dir(out_dir, index), key, index)
            if fault is not None:
                raise UserError(f"chunk {index} {fault} right after it was written: check the "
                                f"disk under {out_dir!r}, then rerun with --resume")
    return finished_chunks(out_dir, n_chunks)


def chunk_fault(folder: str, run_key: str, index: int) -> str | None:
    """Why a stored chunk cannot be used as chunk `index` of the run whose key is `run_key`,
    as a phrase ("is damaged (...)"); None when its commit record names them and every file it
    recorded matches its checksum."""
    try:
        with open(os.path.join(folder, COMMIT), "rb") as handle:
            record = loads(handle.read())
        digests = record["sha256"]
        if not isinstance(digests, dict) or not digests:
            raise ValueError(COMMIT)
    except FileNotFoundError:
        return "has no checksum (stored by an older version)"
    except (OSError, ValueError, KeyError, TypeError):
        return f"is damaged ({COMMIT} is unreadable)"
    if "run" not in record:
        return "names no run (stored by an older version)"
    if record["run"] != run_key or record.get("index") != index:
        return "belongs to another run (another seed, rules, size or place)"
    for name, digest in sorted(digests.items()):
        try:
            with open(os.path.join(folder, name), "rb") as handle:
                if hashlib.file_digest(handle, "sha256").hexdigest() != digest:
                    return f"is damaged ({name}: checksum mismatch)"
        except FileNotFoundError:
            return f"is damaged ({name} is missing)"
        except OSError as err:
            return f"is damaged ({name}: {err.strerror or err})"
    return None


def drop_damaged(out_dir: str, run_key: str,
                 warn: Callable[[str], None] | None = None) -> None:
    """Remove every stored chunk that fails its check against the run (`chunk_fault`),
    warn(line) naming each, and the temporary folders of stores that never ended."""
    root = os.path.join(out_dir, "chunks")
    for name in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        path = os.path.join(root, name)
        if name.startswith(".tmp-"):
            shutil.rmtree(path)
        elif name.isdigit() and (fault := chunk_fault(path, run_key, int(name))) is not None:
            if warn is not None:
                warn(f"chunk {int(name)} {fault}: computing it again")
            shutil.rmtree(path)


def store_chunk(out_dir: str, run_key: str, index: int, files: dict[str, bytes]) -> None:
    """Commit chunk `index` of the run whose key is `run_key`: its files and their checksums
    with the key and the index (COMMIT), each fsynced, in a temporary folder renamed into
    place. A failed write leaves no trace but a one-line UserError."""
    final = chunk_dir(out_dir, index)
    if os.path.isdir(final):
        return
    tmp = os.path.join(out_dir, "chunks", f".tmp-{index:06d}-{os.getpid()}")
    with writing_run(out_dir):
        try:
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp)
            digests = {}
            for name, data in files.items():
                write_file(os.path.join(tmp, name), data)
                digests[name] = hashlib.sha256(data).hexdigest()
            record = {"sha256": digests, "run": run_key, "index": index}
            write_file(os.path.join(tmp, COMMIT), json.dumps(record).encode())
            _sync_folder(tmp)
            os.rename(tmp, final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        _sync_folder(os.path.dirname(final))


def chunk_storer(plan: ChunkedPlan, on_done: Callable[[int], None]) -> Callable[[tuple], None]:
    """store(result) for a run's chunks: a job's (index, count, files) into the plan's folder,
    then on_done(count)."""
    out_dir, key = plan.out_dir, plan.run_key

    def store(result: tuple) -> None:
        index, count, files = result
        store_chunk(out_dir, key, index, files)
        on_done(count)

    return store


def stream_parquet(tables: Iterable, out: str, info: dict) -> None:
    """Write pyarrow tables (one schema) into one Parquet file carrying the run's facts under
    the metadata key `euchre_sim`; written under a temporary name (removed if anything fails),
    fsynced, then renamed."""
    import pyarrow.parquet as pq

    tmp = out + ".tmp"
    writer = None
    with writing_run(os.path.dirname(out) or "."):
        try:
            for table in tables:
                if writer is None:
                    meta = dict(table.schema.metadata or {})
                    meta[b"euchre_sim"] = json_text(info, sort_keys=True).encode()
                    writer = pq.ParquetWriter(tmp, table.schema.with_metadata(meta))
                writer.write_table(table.replace_schema_metadata(writer.schema.metadata))
            if writer is not None:
                writer.close()
                with open(tmp, "rb") as handle:
                    os.fsync(handle.fileno())
                os.replace(tmp, out)
        finally:
            if writer is not None and writer.is_open:
                with contextlib.suppress(Exception):  # the failure being raised says enough
                    writer.close()
            _discard(tmp)


def run_jobs_local(jobs: Iterable, compute: Callable, store: Callable, workers: int) -> None:
    """compute(job) for every job on `workers` local processes, store(result) as each ends;
    at most two jobs a worker are submitted at a time, so memory does not grow with the
    number of jobs."""
    from concurrent.futures import FIRST_COMPLETED, wait

    from .parallel import worker_pool

    source = iter(jobs)
    first = list(itertools.islice(source, 2))
    if workers <= 1 or len(first) <= 1:
        for job in itertools.chain(first, source):
            store(compute(job))
        return
    # Ctrl-C or a failed chunk stops the workers at once (`worker_pool`): the chunks stored
    # are kept, the others computed by a resume
    with worker_pool(workers) as pool:
        pending = {pool.submit(compute, job)
                   for job in itertools.chain(first, itertools.islice(source, 2 * workers - 2))}
        while pending:  # finished futures are dropped at once, and their results with them
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                store(future.result())
                pending |= {pool.submit(compute, job) for job in itertools.islice(source, 1)}


def run_jobs_dask(jobs: Iterable, compute: Callable, store: Callable, scheduler: str,
                  workers: int, threads: int = 1, name: str = "euchre-chunk") -> None:
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
            except (OSError, ValueError) as err:  # ValueError: an address Dask cannot read
                raise UserError(f"cannot reach the Dask scheduler {scheduler!r}: {err}") \
                    from None
        with client:
            # a key names everything the job depends on, so runs sharing a cluster never
            # share results unless they are the same computation
            jobs = list(jobs)  # the cluster's scheduler holds every task anyway
            keys = [f"{name}-{job.index}-{tokenize(job)}" for job in jobs]
            futures = client.map(compute, jobs, key=keys, retries=3)
            for future in as_completed(futures):
                store(future.result())
                future.release()
    finally:
        if cluster is not None:
            cluster.close()
