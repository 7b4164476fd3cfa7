"""The Starlette application: the page at `/`, its static files, and the JSON API under
`/api/` (README, "Web page"), behind the Guard. Every user mistake is a 4xx
`{"error": "one line"}`; paths are read only under the runs folder. Files are read and bodies
parsed off the event loop, in a few threads of their own (READ_THREADS; plots one at a time),
so that slow reads wait for a thread instead of taking the pool the page is served from."""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable
from importlib.resources import files

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.responses import JSONResponse as StarletteJSON
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..api import Error as UserError
from ..api.hands import check_entry
from ..api.options import rules_of
from ..api.output import json_text
from ..api.server import atlas_covers, parse_json
from ..api.tables import RowFilter
from .bodies import advise_question, fields_of, rate_key, solve_args
from .catalog import deck_catalog, rules_catalog
from .guard import Guard
from .hosts import AllowedHosts
from .practice import NoGame, PracticeGames, Stale
from .queries import advise_query, solve_query, warm_up_steps
from .reviews import HISTORY_EXTENSIONS, review_query
from .runs import plot_png, run_overview, table_page
from .runs_root import OutsideRoot, RunsRoot
from .worker import Busy, Job, Worker, failure


class JSONResponse(StarletteJSON):
    """Starlette's JSON answer, strict: a figure that is not finite is null (`json_text`), as
    the command line writes it, never a 500 for a NaN in a table's row."""

    def render(self, content) -> bytes:
        return json_text(content, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


STATIC = files("euchre_sim.web") / "static"
JOB_KINDS = ("advise", "solve", "review")
READ_THREADS = 2  # threads that read files and parse bodies and tables at once
POLL_SECONDS = 0.05  # how often a waiting query looks for its end and for its client leaving
MAX_PLOTS = 4  # plot requests drawing or waiting at once; one more is refused (429)
MAX_TABLES = 8  # table pages read or waiting at once (READ_THREADS read at a time)
_ENTRY_FIELDS = {"record": dict, "rules": str, "set": (dict, list)}


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _off_loop(limiter: anyio.CapacityLimiter) -> Callable:
    """`await run(function, *args)`: the call in a thread that `limiter` lends."""
    async def run(function: Callable, *args):
        return await anyio.to_thread.run_sync(functools.partial(function, *args),
                                              limiter=limiter)
    return run


class Turns:
    """Heavy requests of one kind (a plot, a table page): `at_once` served at a time, at most
    `bound` asked at once (Busy beyond), none served to a client that left while it
    waited."""

    def __init__(self, what: str, at_once: int, bound: int):
        self.what, self.bound, self.asked = what, bound, 0
        self.limiter = anyio.CapacityLimiter(at_once)

    async def run(self, request: Request, function: Callable, *args):
        """function(*args) in a thread when its turn comes; None when the client left."""
        if self.asked >= self.bound:
            raise Busy(f"{self.bound} {self.what} are being made or waiting; ask again soon")
        self.asked += 1
        try:
            async with self.limiter:
                if await request.is_disconnected():
                    return None
                return await anyio.to_thread.run_sync(functools.partial(function, *args))
        finally:
            self.asked -= 1


def _submit(worker: Worker, root: RunsRoot, kind: str, body) -> Job:
    """Check a query and queue it (a bad query fails here, before it waits)."""
    if kind == "advise":
        question = advise_question(body, root.place)
        return worker.submit(kind, advise_query(question), question.work_units,
                             rate_key(question))
    if kind == "solve":
        return worker.submit(kind, solve_query(*solve_args(body)))
    if kind == "review":
        return worker.submit(kind, review_query(body, root.place))
    raise UserError(f"unknown job kind {kind!r} (kinds: {', '.join(JOB_KINDS)})")


async def _answer(job: Job, worker: Worker, request: Request) -> JSONResponse:
    """Wait for a queued query (holding no thread) and answer with its result or its error;
    cancel it when the client leaves."""
    while not job.finished.is_set():
        if await request.is_disconnected():
            worker.cancel(job.id)
            return _error(409, "the query was cancelled: its client left")
        await anyio.sleep(POLL_SECONDS)
    if job.state == "done":
        return JSONResponse(job.result)
    if job.state == "cancelled":
        return _error(409, "the query was cancelled")
    return _error(job.status, job.error)


def _client(request: Request) -> str:
    """The client's address: practice games are capped by it."""
    return request.client.host if request.client else ""


def _job_or_404(worker: Worker, job_id: str) -> Job:
    job = worker.get(job_id)
    if job is None:
        raise HTTPException(404, f"no job {job_id!r}")
    return job


def _int_param(request: Request, name: str, default: int | None = None) -> int | None:
    text = request.query_params.get(name, "")
    if text == "":
        return default
    try:
        return int(text)
    except ValueError:
        raise UserError(f"{name} must be a whole number, got {text!r}") from None


def _table_filters(request: Request) -> RowFilter:
    """The rows asked for by the query string (empty values: no filter)."""
    params = request.query_params
    alone = params.get("alone", "")
    if alone not in ("", "true", "false"):
        raise UserError(f"alone must be true or false, got {alone!r}")
    return RowFilter(round=_int_param(request, "round"), seat=_int_param(request, "seat"),
                     trumps=_int_param(request, "trumps"),
                     alone=None if alone == "" else alone == "true",
                     hand=params.get("hand") or None, action=params.get("action") or None,
                     min_n=_int_param(request, "min_n", 1), sort=params.get("sort") or None,
                     descending=params.get("ascending", "") != "true")


def _run_dir(request: Request, root: RunsRoot) -> str:
    out_dir = request.query_params.get("dir", "").strip()
    if not out_dir:
        raise UserError("give a run folder: ?dir=PATH")
    return root.place(out_dir)


def create_app(worker: Worker | None = None, runs_root: str | None = None,
               host: str = "127.0.0.1", token: str | None = None,
               games: PracticeGames | None = None) -> Starlette:
    """The app, with its worker (by default one that warms up on the library's kernels),
    reading paths only under `runs_root` (default: the current folder), answering to the
    loopback's names and `host`, and requiring `token` on the API when one is given; its
    practice games kept in `games`, their queries run while the worker warms up. The worker
    starts and stops with the app."""
    worker = worker or Worker(warm_up_steps())
    games = games or PracticeGames()
    root = RunsRoot(runs_root or os.getcwd())
    read = _off_loop(anyio.CapacityLimiter(READ_THREADS))
    plots = Turns("plots", 1, MAX_PLOTS)  # pyplot draws one figure at a time
    tables = Turns("table pages", READ_THREADS, MAX_TABLES)

    async def body(request: Request):
        return await read(parse_json, await request.body(), "the body")

    async def page(request: Request) -> Response:
        return FileResponse(str(STATIC / "index.html"))

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"ready": worker.ready.is_set(), "rates": dict(worker.rates),
                             "warm_up_seconds": worker.warm_up_seconds,
                             "warm_up_error": worker.warm_up_error,
                             "waiting": worker.waiting(), "warm_up": worker.warm_up_state()})

    async def rules(request: Request) -> JSONResponse:
        return JSONResponse(rules_catalog())

    async def deck(request: Request) -> JSONResponse:
        params = request.query_params
        return JSONResponse(deck_catalog(rules_of(params.get("rules", "standard"),
                                                  params.getlist("set"))))

    async def query(kind: str, request: Request) -> JSONResponse:
        job = await read(_submit, worker, root, kind, await body(request))
        return await _answer(job, worker, request)

    async def estimate(request: Request) -> JSONResponse:
        question = await read(advise_question, await body(request), root.place)
        if await read(atlas_covers, question):  # read from the shipped atlas: no simulation
            return JSONResponse({"units": 0, "units_per_second": None, "seconds": 0.0,
                                 "source": "atlas", "waiting": worker.waiting()})
        rate, units = worker.rates.get(rate_key(question)), question.work_units
        return JSONResponse({"units": units, "units_per_second": rate,
                             "seconds": units / rate if rate else None,
                             "source": "simulation", "waiting": worker.waiting()})

    async def advise(request: Request) -> JSONResponse:
        return await query("advise", request)

    async def solve(request: Request) -> JSONResponse:
        return await query("solve", request)

    async def review(request: Request) -> JSONResponse:
        return await query("review", request)

    async def entry(request: Request) -> JSONResponse:
        fields = fields_of(await body(request), _ENTRY_FIELDS, "entry")
        rules = rules_of(fields.get("rules", "standard"), fields.get("set"))
        return JSONResponse(await read(check_entry, fields.get("record"), rules))

    async def histories(request: Request) -> JSONResponse:
        return JSONResponse(await read(root.files, HISTORY_EXTENSIONS))

    async def new_job(request: Request) -> JSONResponse:
        given = await body(request)
        if not isinstance(given, dict) or set(given) != {"kind", "query"}:
            raise UserError('a job is {"kind": "advise", "solve" or "review", '
                            '"query": {...}}')
        job = await read(_submit, worker, root, given["kind"], given["query"])
        return JSONResponse(job.snapshot(), status_code=202)

    async def job(request: Request) -> JSONResponse:
        found = _job_or_404(worker, request.path_params["job_id"])
        if request.method == "DELETE":
            worker.cancel(found.id)
        return JSONResponse(found.snapshot())

    async def practice(request: Request) -> JSONResponse:
        return await dealt(*await read(games.new, await body(request), _client(request)),
                           request)

    async def practice_retry(request: Request) -> JSONResponse:
        return await dealt(*await read(games.retry, request.path_params["game_id"],
                                       await body(request), _client(request)), request)

    async def dealt(game_id: str, deal_first, request: Request) -> JSONResponse:
        """A new game's first state, or its place given back when it cannot be dealt."""
        try:
            answered = await _answer(worker.submit("practice", deal_first, before_ready=True),
                                     worker, request)
        except Busy:
            games.drop(game_id)
            raise
        if answered.status_code != 200:
            games.drop(game_id)
        return answered

    async def practice_act(request: Request) -> JSONResponse:
        act = await read(games.act, request.path_params["game_id"], await body(request))
        return await _answer(worker.submit("practice", act, before_ready=True), worker,
                             request)

    async def practice_next(request: Request) -> JSONResponse:
        deal = await read(games.next_hand, request.path_params["game_id"], await body(request))
        return await _answer(worker.submit("practice", deal, before_ready=True), worker,
                             request)

    async def practice_egn(request: Request) -> JSONResponse:
        document = await read(games.egn, request.path_params["game_id"])
        return JSONResponse(document, headers={
            "Content-Disposition": 'attachment; filename="practice.egn"'})

    async def runs(request: Request) -> JSONResponse:
        return JSONResponse(await read(root.runs))

    async def run(request: Request) -> JSONResponse:
        return JSONResponse(await read(run_overview, _run_dir(request, root)))

    async def run_table(request: Request) -> Response:
        page = await tables.run(
            request, table_page, _run_dir(request, root),
            request.query_params.get("table", "calls"), _table_filters(request),
            _int_param(request, "limit", 100))
        return Response(status_code=204) if page is None else JSONResponse(page)

    async def run_plot(request: Request) -> Response:
        try:
            png = await plots.run(request, plot_png, _run_dir(request, root),
                                  request.query_params.get("kind", "heatmaps"),
                                  _int_param(request, "round", 1))
        except ImportError:
            raise UserError("plots need matplotlib: pip install 'euchre-sim[plot]'") from None
        if png is None:
            return Response(status_code=204)
        return Response(png, media_type="image/png")

    async def user_error(request: Request, err: UserError) -> JSONResponse:
        return _error(*failure(err))

    async def outside_root(request: Request, err: OutsideRoot) -> JSONResponse:
        return _error(403, str(err))

    async def busy(request: Request, err: Busy) -> JSONResponse:
        return _error(429, str(err))

    async def no_game(request: Request, err: NoGame) -> JSONResponse:
        return _error(404, str(err))

    async def stale(request: Request, err: Stale) -> JSONResponse:
        return _error(409, str(err))

    async def http_error(request: Request, err: HTTPException) -> JSONResponse:
        return _error(err.status_code, str(err.detail))

    async def internal_error(request: Request, err: Exception) -> JSONResponse:
        return _error(500, f"internal error: {type(err).__name__}: {err}")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        worker.start()
        yield
        await anyio.to_thread.run_sync(worker.stop)

    routes = [
        Route("/", page), Route("/api/health", health), Route("/api/rules", rules),
        Route("/api/deck", deck), Route("/api/estimate", estimate, methods=["POST"]),
        Route("/api/advise", advise, methods=["POST"]),
        Route("/api/solve", solve, methods=["POST"]),
        Route("/api/review", review, methods=["POST"]),
        Route("/api/entry", entry, methods=["POST"]), Route("/api/histories", histories),
        Route("/api/jobs", new_job, methods=["POST"]),
        Route("/api/jobs/{job_id}", job, methods=["GET", "DELETE"]),
        Route("/api/practice", practice, methods=["POST"]),
        Route("/api/practice/{game_id}/act", practice_act, methods=["POST"]),
        Route("/api/practice/{game_id}/next", practice_next, methods=["POST"]),
        Route("/api/practice/{game_id}/retry", practice_retry, methods=["POST"]),
        Route("/api/practice/{game_id}/egn", practice_egn),
        Route("/api/runs", runs), Route("/api/run", run), Route("/api/run/table", run_table),
        Route("/api/run/plot", run_plot),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    guard = Middleware(Guard, hosts=AllowedHosts.serving(host), token=token)
    return Starlette(routes=routes, lifespan=lifespan, middleware=[guard],
                     exception_handlers={UserError: user_error, OutsideRoot: outside_root,
                                         Busy: busy, NoGame: no_game, Stale: stale,
                                         HTTPException: http_error,
                                         Exception: internal_error})
