"""Package data: the realistic atlases (advice.atlas), their charts' cells and odds of the game, made by tools/make_atlas.py."""
