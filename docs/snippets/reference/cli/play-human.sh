take5rules play --players "me=human,bob=cautious,cyd=random" --lang fr
