"""The outputs: exports (PBN, CSV, USEBIO, Duplimate), hand records, the printed pack, the hand
viewer with its play analysis, and the published site."""
