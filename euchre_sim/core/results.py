"""A hand's result for one side, as a column of the result shares that the decision tables
keep and the `game` bidder reads: us scoring 1..top, them scoring 1..top, nobody scoring (top:
the rules' `max_hand_points`)."""

from .jit import njit


def result_names(top: int) -> list[str]:
    """The results' names in column order: us_1..us_top, them_1..them_top, none."""
    return ([f"us_{k}" for k in range(1, top + 1)] + [f"them_{k}" for k in range(1, top + 1)]
            + ["none"])


def share_names(top: int) -> list[str]:
    """The decision tables' columns of the results' shares (p_us_1 ... p_none)."""
    return [f"p_{name}" for name in result_names(top)]


@njit(inline="always")
def n_results(top):
    """How many results there are (columns of the shares)."""
    return 2 * top + 1


@njit(inline="always")
def result_index(points, top):
    """The column of a result: `points` to our side (negative: to theirs; 0: nobody)."""
    if points > 0:
        return points - 1
    if points < 0:
        return top - points - 1
    return 2 * top


@njit(inline="always")
def result_points(index, top):
    """Points to our side of the result in column `index` (`result_index`'s inverse)."""
    if index < top:
        return index + 1
    if index < 2 * top:
        return top - index - 1
    return 0
