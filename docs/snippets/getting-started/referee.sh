echo '{"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["ana", 17], ["bob", 2]], "choices": {"bob": 3}}' \
  | take5rules referee
