"""The ``take5rules`` subcommands, one module per concern, loaded only when run.

The command group (:mod:`take5rules.cli`) names each command and the module that defines it;
a module here is imported when its command runs (or when ``take5rules COMMAND --help`` is
asked), so that ``take5rules --help`` starts without importing the engine's commands, Babel's
catalogs or any optional package. The library never imports these modules: no module of
``take5rules`` outside this package, :mod:`take5rules.cli` and :mod:`take5rules._clitools`
imports click.
"""
