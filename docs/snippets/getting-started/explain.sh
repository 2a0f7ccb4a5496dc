take5rules explain table.sixth-card --lang bg
