"""The Click app of euchre-sim, installed as the `euchre_sim_cli` package."""
