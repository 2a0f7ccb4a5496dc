from take5rules.text import explain

rule = explain("table.sixth-card", "bg")
print(rule.title, rule.statement, sep="\n")
