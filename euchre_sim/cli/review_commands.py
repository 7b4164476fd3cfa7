"""`euchre-sim review`: where the points went in recorded hands."""

from __future__ import annotations

import click

from ..api.output import json_text
from .app import cli
from .options import json_option, player_fields, rules_options, seed_option
from .progress import notes_compiling


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@seed_option
@rules_options
@player_fields(valued=True)
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write review.parquet and run.json (per-seat totals) here.")
@click.option("--egn", "egn_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE", help="Write the hands as EGN, each loss annotated on its call or "
              "card.")
@click.option("--kinds", default="bid,discard,defend_alone,card", show_default=True,
              help="The kinds of decision to value (comma-separated).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@json_option(rows=True)
@notes_compiling("review")
def review(file: str, seed: int, ruleset, out_dir: str | None, egn_path: str | None,
           kinds: str, no_progress: bool, as_json: bool, **player) -> int:
    """Value every bid, discard, defend-alone choice and card of recorded hands: `dd` with
    every card seen, `pimc` from what the seat knew; each choice's loss against the best.

    Exit status 0 when every hand could be reviewed, 1 when a hand was rejected, 2 when FILE
    cannot be read.

    Example: euchre-sim review hands.jsonl --worlds 50 --out review/
    """

    from ..api.reviewing import check_outputs, reviewed
    from .progress import progress_bar, stderr_is_terminal

    check_outputs(out_dir, egn_path)  # before the work: an output not writable is one line
    shown = not (no_progress or as_json) and stderr_is_terminal()
    progress, task = progress_bar("reviewing", "hands", 0, 0, shown)
    with progress:
        done = reviewed(file, seed=seed, rules=ruleset, kinds=kinds,
                        progress=lambda n, total: progress.update(task, completed=n,
                                                                  total=total), **player)
    if as_json:
        for row in done.rows:
            click.echo(json_text(row))
        for error in done.rejected:
            click.echo(json_text({"id": error[0], "ok": False, "error": error[1]}))
    else:
        done.report(click.echo)
    if out_dir:
        done.save(out_dir)
    if egn_path:
        done.save_egn(egn_path, f"Review of {file}")
    return 1 if done.rejected else 0
