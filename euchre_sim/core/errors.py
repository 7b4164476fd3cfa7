"""The exception types for mistakes a user can make (printed as one line, exit 2), and how a
front end names the fields of a question in them."""

from collections.abc import Callable

SHOWN_CHARACTERS = 40  # of a value echoed in an error line (`shown`)


class UserError(ValueError):
    """Bad input from the user: a bad card, deal, option, file or record."""

    def named(self, name_of: Callable[[str], str]) -> str:
        """The line with each field it names spelt by `name_of` (`FieldError`): plain errors
        name none."""
        return str(self)


class DamagedInstall(UserError):
    """A file the package ships that cannot be read (the learned player's net: missing, empty,
    cut short, of the wrong shape): one line naming it and saying to reinstall. The server
    answers every query that does not need it, and 503 with the line to one that does."""


class FieldError(UserError):
    """A mistake in a question's fields. The library writes each field as `{name}`; the front
    end that asked renders the line with its own names (`named`: `option_name` on the command
    line, `json_name` on the page); plain str() names them as options."""

    def __init__(self, template: str, **values):
        self.template, self.values = template, values
        super().__init__(self.named(option_name))

    def named(self, name_of: Callable[[str], str]) -> str:
        return self.template.format_map(_Names(name_of, self.values))


class _Names(dict):
    """The values given, and every other `{name}` a field spelt by `name_of`."""

    def __init__(self, name_of: Callable[[str], str], values: dict):
        super().__init__(values)
        self.name_of = name_of

    def __missing__(self, key: str) -> str:
        return self.name_of(key)


def option_name(field: str) -> str:
    """A field as the command line spells it: `turned_down` -> `--turned-down`."""
    return "--" + field.replace("_", "-")


def json_name(field: str) -> str:
    """A field as a JSON body spells it: `turned_down` -> `'turned_down'`."""
    return repr(field)


def shown(value, limit: int = SHOWN_CHARACTERS) -> str:
    """`value` as an error line echoes it (repr), cut after `limit` characters, a text's
    length said, so that a 100 KB mistake stays a short line: 'XXXX'… (100,000 characters)."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else text[:limit] + "…"
