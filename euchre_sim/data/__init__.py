"""Package data: the realistic atlases (advice.atlas), their charts' cells and the odds of
the game beside them, made by tools/make_atlas.py."""
