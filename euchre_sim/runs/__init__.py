"""Chunked runs: local worker processes or a Dask cluster, the manifest, resume, merge."""
