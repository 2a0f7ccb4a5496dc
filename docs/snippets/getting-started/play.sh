take5rules play --players ana=cautious,bob=lowest,cyd=random --seed 7
take5rules play --lang fr --variant tactics
