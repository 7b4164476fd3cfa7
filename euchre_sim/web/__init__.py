"""`euchre-sim serve`: a local web page and JSON API over the library's advise and solve."""
