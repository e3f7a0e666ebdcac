"""Sub-commands of the ``paigow`` console script, one module each."""
