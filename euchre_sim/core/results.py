"""A hand's result for one side, as a column of the result shares that the decision tables
keep and the `game` bidder reads: us scoring 1..top, them scoring 1..top, nobody scoring (top:
the rules' `max_hand_points`; the columns' names: `core.run_tables.share_names`)."""

from .jit import njit


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
