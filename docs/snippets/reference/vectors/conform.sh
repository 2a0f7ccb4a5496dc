take5rules conform --cmd "./my-referee"
