take5rules conform --player "node bot.js"                  # follows the protocol in every phase?
take5rules arena cautious "cmd:node bot.js"                # how strong, against cautious
take5rules play --players "me=human,bot=cmd:node bot.js"   # play against it yourself
