pip install "take5rules[env]"     # the PettingZoo environment (pettingzoo, gymnasium, numpy)
pip install "take5rules[batch]"   # the batched simulator (numpy)
pip install "take5rules[mcp]"     # the MCP server (the official mcp SDK)
