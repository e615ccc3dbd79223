"""What kg makes of a store: export, the network projection and its view, analysis, charts, counts."""
