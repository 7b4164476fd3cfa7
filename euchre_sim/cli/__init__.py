"""The Click app of euchre-sim (the `euchre-sim` command): the top wing, over every other one."""
