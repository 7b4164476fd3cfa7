"""Option bundles shared by commands, so every command spells them the same way."""

from __future__ import annotations

import functools

import click

from ..api.catalog import DEFAULT_PLAY, DEFAULT_WORLDS, MODELS, PLAY_MODELS, VALUED_WORLDS


def rules_options(command):
    """--rules PRESET and repeatable --set KEY=VALUE, passed on as one `ruleset` argument."""

    @click.option("--rules", "preset_name", default="standard", show_default=True,
                  metavar="PRESET", help="Rule preset (see 'euchre-sim rules').")
    @click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
                  help="Change one option of the preset (repeatable).")
    @functools.wraps(command)
    def wrapper(*args, preset_name: str, settings: tuple[str, ...], **kwargs):
        from ..api.options import rules_of

        return command(*args, ruleset=rules_of(preset_name, settings), **kwargs)

    return wrapper


seed_option = click.option("--seed", type=int, default=0, show_default=True,
                           help="Seed: fixes every random choice.")


def json_option(rows: bool = False):
    """--json, by the one rule: one JSON object for one answer; JSON lines (an object a line)
    for rows."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print JSON lines, an object a line." if rows else
                        "Print one JSON object.")


def deprecation_note(old: str, new: str) -> None:
    """The one line an old spelling prints on standard error."""
    click.echo(f"euchre-sim: note: {old} is deprecated, write {new}", err=True)


def renamed_option(new: str, old: str, dest: str, **attrs):
    """Option `new` (passed on as `dest`) with `old`, its former spelling, kept as a hidden
    alias that prints a deprecation note; giving both is a usage error."""
    old_dest = f"_old_{dest}"
    required = attrs.pop("required", False)

    def decorate(command):
        @click.option(new, dest, **attrs)
        @click.option(old, old_dest, hidden=True, **attrs)
        @functools.wraps(command)
        def wrapper(*args, **kwargs):
            before = kwargs.pop(old_dest)
            if before is not None:
                if kwargs[dest] is not None:
                    raise click.UsageError(f"give {new} only (not also {old})")
                deprecation_note(f"{old} {attrs.get('metavar', '')}".strip(), new)
                kwargs[dest] = before
            if required and kwargs[dest] is None:
                raise click.UsageError(f"missing option {new}")
            return command(*args, **kwargs)

        return wrapper

    return decorate


def compass_seat(option: str, text: str):
    """A compass seat (N E S W) given to `option`; digits, the old spelling, with a note."""
    from ..api.catalog import SEAT_NAMES, parse_seat

    seat = parse_seat(text)
    if str(text).strip().isdigit():
        deprecation_note(f"{option} {text}", f"{option} {SEAT_NAMES[seat]} (digits are positions "
                         "elsewhere)")
    return seat

def _usable_workers(ctx, param, asked: int | None) -> int:
    """--workers as a count of processes: all cores by default, never more (a note says so)."""
    from ..api.catalog import default_workers

    cores = default_workers()
    if asked is not None and asked > cores:
        click.echo(f"euchre-sim: note: --workers {asked:,} is more than the {cores} cores here: "
                   f"using {cores}", err=True)
    return min(asked or cores, cores)


workers_option = click.option("--workers", type=click.IntRange(min=1), default=None,
                              callback=_usable_workers,
                              help="Worker processes (default and most: all cores).")


PLAY_HELP = "Card play: " + "; ".join(f"{m.name}, {m.description}" for m in MODELS) + "."
PEOPLE_HELP = (" Default: learned with --bidding human (a table of people) when neither is "
               "given, else dd.")
WORLDS_HELP = "Worlds each PIMC decision samples and solves (learned-search: at its close calls)."
VALUED_HELP = "Worlds (deals, for a bid) each decision's pimc value samples."


def play_options(command, people_default: bool = False, valued: bool = False):
    """--play MODEL and --worlds K (PIMC), passed on as `play` and `worlds`; with
    `people_default`, --play is None when not given (`advice.question.models_of`); `valued`:
    a player whose worlds value each decision (`play.player.Player.valuing`), --worlds alone
    (the model is the solver's), at least VALUED_WORLDS."""
    from ..api.catalog import MAX_WORLDS

    command = click.option("--worlds", type=click.IntRange(VALUED_WORLDS if valued else 1,
                                                           MAX_WORLDS),
                           default=DEFAULT_WORLDS, show_default=True,
                           help=VALUED_HELP if valued else WORLDS_HELP)(command)
    if valued:
        return command
    return click.option("--play", type=click.Choice(PLAY_MODELS),
                        default=None if people_default else DEFAULT_PLAY,
                        show_default=not people_default,
                        help=PLAY_HELP + (PEOPLE_HELP if people_default else ""))(command)


def bidding_options(command):
    """--bidding BIDDER, --bidder-params FILE and --bidder-table DIR, passed on as `bidding`,
    `bidder_params` and `bidder_table`."""
    from ..api.catalog import BIDDERS

    command = click.option("--bidder-table", "bidder_table", default=None, metavar="DIR",
                           help="The table bidder's decisions: a finished simulate --bidding "
                           "run.")(command)
    command = click.option("--bidder-params", "bidder_params", default=None, metavar="FILE",
                           help="JSON weights and thresholds of the rules bidder "
                           "(on top of the fitted ones under --bidding human; see "
                           "README).")(command)
    return click.option("--bidding", type=click.Choice(BIDDERS), default=None,
                        help="Value pass against the calls where the auction reaches the "
                        "seat, bid by dd (perfect information), rules (point count), human "
                        "(the point count fitted to how often people call) or table (a "
                        "decisions table).")(command)


def player_fields(command=None, *, people_default: bool = False, valued: bool = False):
    """The options of a player (`play_options` and `bidding_options`), passed on as the
    fields they name (`api.catalog.PLAYER_FIELDS`); `people_default`, `valued`: see
    `play_options`."""
    if command is None:
        return functools.partial(player_fields, people_default=people_default, valued=valued)
    return play_options(bidding_options(command), people_default, valued)


def player_options(command=None, *, valued: bool = False):
    """`player_fields`, built into one checked player (`api.options.take_player`) passed on
    as `player` (after `rules_options`, whose rule set it reads a decision table against);
    `valued`: see `play_options`."""
    if command is None:
        return functools.partial(player_options, valued=valued)

    @player_fields(valued=valued)
    @functools.wraps(command)
    def wrapper(*args, ruleset, **kwargs):
        from ..api.options import take_player

        player = take_player(ruleset, kwargs)
        return command(*args, ruleset=ruleset, player=player, **kwargs)

    return wrapper


def sides_options(names: tuple[str, str], ew_default: str, note: str, game: bool = False):
    """Two players, one a side (--ns and --ew bidders: the game bidder too where `game`, else
    random, a player of no kernel; --ns-play and --ew-play,
    both by default --play, --worlds, one --bidder-params FILE for both; `note` follows the
    bidders' help), passed on as
    `players` (play.player.Player, NS first) and `bidder_table` (the table bidders' folder,
    read where the players meet). `names`: how the help calls the two."""
    from ..api.catalog import GAME_BIDDERS, SELF_PLAY_BIDDERS

    bidders = GAME_BIDDERS if game else SELF_PLAY_BIDDERS

    def decorate(command):
        @click.option("--ns", "ns_bidder", type=click.Choice(bidders), default="rules",
                      show_default=True, help=f"{names[0]}'s bidder ({note}).")
        @click.option("--ew", "ew_bidder", type=click.Choice(bidders), default=ew_default,
                      show_default=True, help=f"{names[1]}'s bidder ({note}).")
        @click.option("--ns-play", type=click.Choice(PLAY_MODELS), default=None,
                      help=f"{names[0]}'s card play (default --play).")
        @click.option("--ew-play", type=click.Choice(PLAY_MODELS), default=None,
                      help=f"{names[1]}'s card play (default --play).")
        @click.option("--bidder-params", "bidder_params", default=None, metavar="FILE",
                      help="JSON weights of the rules bidder (both sides; on top of the human "
                      "bidder's own numbers for a human side).")
        @click.option("--bidder-table", "bidder_table", default=None, metavar="DIR",
                      help="The table bidders' decisions: a finished simulate --bidding run.")
        @play_options
        @functools.wraps(command)
        def wrapper(*args, ns_bidder, ew_bidder, ns_play, ew_play, bidder_params, play, worlds,
                    **kwargs):
            from ..api.options import side_players

            players = side_players((ns_bidder, ew_bidder), (ns_play or play, ew_play or play),
                                   bidder_params, worlds)
            return command(*args, players=players, **kwargs)

        return wrapper

    return decorate
