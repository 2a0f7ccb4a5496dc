take5rules conform --cmd "python3 my_referee.py"
