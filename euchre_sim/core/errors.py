"""The one exception type for mistakes a user can make (printed as one line, exit 2)."""


class UserError(ValueError):
    """Bad input from the user: a bad card, deal, option, file or record."""
