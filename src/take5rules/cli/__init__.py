"""The ``take5rules`` command line: its group, and a module per subcommand, loaded when run.

The command group (:mod:`take5rules.cli.main`) names each command and the module that defines it;
a module here is imported when its command runs (or when ``take5rules COMMAND --help`` is
asked), so that ``take5rules --help`` starts without importing the engine's commands, Babel's
catalogs or any optional package. The library never imports these modules: no module of
``take5rules`` outside this package, :mod:`take5rules.cli.main` and :mod:`take5rules.cli.common`
imports click.
"""
