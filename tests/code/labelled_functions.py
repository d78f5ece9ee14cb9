"""Labelled pairs for tuning the helper-reinvention thresholds: (existing, added, duplicate?, why).

Positives are rewrites an agent really produces (renamed locals, reformatted, a docstring added,
a step reordered or added); negatives are near misses of the same size and shape.
"""

from __future__ import annotations

SLUGIFY = '''
def slugify(value):
    """Lower-case, ASCII, dash-separated."""
    value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    value = re.sub(r"[^\\w\\s-]", "", value).strip().lower()
    value = re.sub(r"[-\\s]+", "-", value)
    return value
'''

CHUNKS = """
def chunked(items, size):
    out = []
    for start in range(0, len(items), size):
        out.append(items[start:start + size])
    return out
"""

LOAD_JSON = """
def read_json(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if not text.strip():
        return {}
    return json.loads(text)
"""

FLATTEN = """
def flatten(mapping, prefix=""):
    flat = {}
    for key, value in mapping.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            flat.update(flatten(value, name))
        else:
            flat[name] = value
    return flat
"""

PARSE_DURATION = """
def parse_duration(text):
    units = {"s": 1, "m": 60, "h": 3600}
    text = text.strip()
    if text[-1] in units:
        return float(text[:-1]) * units[text[-1]]
    return float(text)
"""

EMAIL_OK = """
def is_valid_email(address):
    if address.count("@") != 1:
        return False
    local, domain = address.split("@")
    if not local or "." not in domain:
        return False
    return True
"""

GET_USER = """
def get_user(request, user_id):
    obj = User.objects.filter(id=user_id).first()
    if obj is None:
        return JsonResponse({"error": "not found"}, status=404)
    data = obj.to_dict()
    return JsonResponse(data)
"""

DEDUPE = """
def dedupe(items):
    seen = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out
"""

ENV_FLAG = """
def env_flag(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    value = value.strip().lower()
    return value in ("1", "true", "yes", "on")
"""

CASES: list[tuple[str, str, bool, str]] = [
    (
        SLUGIFY,
        """
def new_slug(text):
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\\w\\s-]", "", text).strip().lower()
    text = re.sub(r"[-\\s]+", "-", text)
    return text
""",
        True,
        "same body, other names",
    ),
    (
        SLUGIFY,
        '''
def make_slug(title: str) -> str:
    """Turn a title into a URL slug."""
    normalized = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    cleaned = re.sub(r"[^\\w\\s-]", "", normalized).strip().lower()
    return re.sub(r"[-\\s]+", "-", cleaned)
''',
        True,
        "annotated, docstring, one step inlined",
    ),
    (
        CHUNKS,
        """
def batches(seq, n):
    result = []
    for i in range(0, len(seq), n):
        result.append(seq[i:i + n])
    return result
""",
        True,
        "renamed everything",
    ),
    (
        CHUNKS,
        """
def split_into_chunks(values, chunk_size):
    chunks = []
    index = 0
    while index < len(values):
        chunks.append(values[index:index + chunk_size])
        index += chunk_size
    return chunks
""",
        True,
        "while instead of range, name says chunk",
    ),
    (
        LOAD_JSON,
        """
def load_json_file(filename):
    with open(filename, encoding="utf-8") as f:
        raw = f.read()
    if not raw.strip():
        return {}
    return json.loads(raw)
""",
        True,
        "renamed locals",
    ),
    (
        FLATTEN,
        """
def flatten_dict(d, parent=""):
    result = {}
    for k, v in d.items():
        full = f"{parent}.{k}" if parent else k
        if isinstance(v, dict):
            result.update(flatten_dict(v, full))
        else:
            result[full] = v
    return result
""",
        True,
        "recursive rename",
    ),
    (
        PARSE_DURATION,
        """
def duration_seconds(value):
    factors = {"s": 1, "m": 60, "h": 3600}
    value = value.strip()
    if value[-1] in factors:
        return float(value[:-1]) * factors[value[-1]]
    return float(value)
""",
        True,
        "renamed",
    ),
    (
        DEDUPE,
        '''
def unique_in_order(values):
    """Drop repeats, keep the first of each."""
    seen_values = set()
    result = []
    for value in values:
        if value not in seen_values:
            seen_values.add(value)
            result.append(value)
    return result
''',
        True,
        "docstring and names differ",
    ),
    (
        ENV_FLAG,
        """
def read_bool_env(key, fallback=False):
    raw = os.environ.get(key)
    if raw is None:
        return fallback
    raw = raw.strip().lower()
    return raw in ("1", "true", "yes", "on")
""",
        True,
        "same parsing of a boolean env var",
    ),
    (
        GET_USER,
        """
def fetch_user(request, pk):
    user = User.objects.filter(id=pk).first()
    if user is None:
        return JsonResponse({"error": "not found"}, status=404)
    return JsonResponse(user.to_dict())
""",
        True,
        "same handler, a step inlined",
    ),
    # near misses
    (
        GET_USER,
        """
def get_order(request, order_id):
    obj = Order.objects.filter(id=order_id).first()
    if obj is None:
        return JsonResponse({"error": "not found"}, status=404)
    data = obj.to_dict()
    return JsonResponse(data)
""",
        False,
        "same boilerplate over another model: not a duplicate",
    ),
    (
        DEDUPE,
        """
def duplicates(items):
    seen = set()
    out = []
    for item in items:
        if item in seen:
            out.append(item)
        seen.add(item)
    return out
""",
        False,
        "the opposite result from the same loop",
    ),
    (
        ENV_FLAG,
        """
def env_int(name, default=0):
    value = os.environ.get(name)
    if value is None:
        return default
    value = value.strip()
    return int(value)
""",
        False,
        "reads an env var, parses another type",
    ),
    (
        SLUGIFY,
        """
def normalize_whitespace(text):
    text = text.replace("\\t", " ")
    text = text.replace("\\r", "")
    text = " ".join(text.split())
    return text.strip()
""",
        False,
        "same shape, different work",
    ),
    (
        CHUNKS,
        """
def evens(items, limit):
    out = []
    for item in items:
        if item % 2 == 0 and item < limit:
            out.append(item)
    return out
""",
        False,
        "list-building loop, different logic",
    ),
    (
        LOAD_JSON,
        """
def read_lines(path):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    lines = [line for line in lines if line.strip()]
    return lines
""",
        False,
        "reads a file, different result",
    ),
    (
        EMAIL_OK,
        """
def is_valid_phone(number):
    digits = [c for c in number if c.isdigit()]
    if len(digits) < 7:
        return False
    if number.startswith("+") and len(digits) > 15:
        return False
    return True
""",
        False,
        "validator of another thing",
    ),
    (
        PARSE_DURATION,
        """
def parse_size(text):
    units = {"k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}
    text = text.strip().lower()
    if text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)
""",
        False,
        "same idiom, other units and types: arguably a sibling, not a copy",
    ),
    (
        FLATTEN,
        """
def count_leaves(mapping):
    total = 0
    for value in mapping.values():
        if isinstance(value, dict):
            total += count_leaves(value)
        else:
            total += 1
    return total
""",
        False,
        "recursive walk of the same shape, other purpose",
    ),
]
