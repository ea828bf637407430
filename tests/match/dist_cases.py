"""Real errors from installed distributions (not the standard library), for
the match accuracy test at the installed version.

Runs each call below with a bad input in this interpreter and prints one
JSON line per case whose exception was raised by a `raise` or `assert`
statement of an installed distribution's Python source: the formatted
traceback, the exception-only text, the innermost frame's file (relative to
its site-packages folder), its line, and the distribution that owns the file
(its RECORD) with its version. Cases raised elsewhere (the standard library,
C code, a distribution not installed) are reported on stderr and left out.
"""
import json
import os
import sys
import sysconfig
import traceback
import importlib.metadata as md

from case_tools import Counts, innermost, raised

SITES = sorted({os.path.realpath(sysconfig.get_paths()[k]) for k in ("purelib", "platlib")}, key=len, reverse=True)

# Which distribution installed each file, from the RECORDs.
OWNER = {}
for dist in md.distributions():
    for f in dist.files or []:
        path = os.path.realpath(str(dist.locate_file(f)))
        OWNER.setdefault(path, (dist.metadata["Name"], dist.version))

CASES = r'''
import requests; requests.get("not a url")
import requests; requests.Request("GET", "http://[::1").prepare()
import requests; requests.Session().mount("", None); requests.get("ftp2://x")
import requests.utils; requests.utils.to_key_val_list(1)
import requests.auth; requests.auth.HTTPDigestAuth("u", "p").build_digest_header("GET", "http://x")
import idna; idna.encode("a..b")
import idna; idna.encode("-bad-.com")
import idna; idna.decode("xn--")
import idna; idna.encode("a" * 64 + ".com")
import dateutil.parser; dateutil.parser.parse("xx nonsense")
import dateutil.parser; dateutil.parser.parse("2020-13-45")
import dateutil.relativedelta; dateutil.relativedelta.relativedelta(months=1.5)
import dateutil.rrule; dateutil.rrule.rrulestr("FREQ=NOPE")
import jsonschema; jsonschema.validate(1, {"type": "string"})
import jsonschema; jsonschema.validate({}, {"type": "object", "required": ["a"]})
import jsonschema; jsonschema.Draft7Validator.check_schema({"type": 5})
import click; click.Choice(["a"]).convert("b", None, None)
import click; click.IntRange(0, 5).convert(9, None, None)
import click; click.INT.convert("x", None, None)
import click; click.Path(exists=True).convert("/no/such/errdex/path", None, None)
import yaml; yaml.safe_load("a: [")
import yaml; yaml.safe_load("a: b: c")
import yaml; yaml.safe_load("!!python/object:os.system x")
import jmespath; jmespath.search("a[", {})
import jmespath; jmespath.search("foo(@)", {})
import jmespath; jmespath.compile("a.b[?")
import jinja2; jinja2.Template("{% if %}")
import jinja2; jinja2.Environment(undefined=jinja2.StrictUndefined).from_string("{{ x.y }}").render()
import jinja2; jinja2.Environment().get_template("nope.html")
import werkzeug.exceptions; werkzeug.exceptions.abort(404)
import werkzeug.routing; werkzeug.routing.Map([werkzeug.routing.Rule("/a")]).bind("x").match("/b")
import werkzeug.datastructures; werkzeug.datastructures.ImmutableDict(a=1)["b"] = 2
import networkx as nx; nx.shortest_path(nx.Graph([(1, 2)]), 1, 3)
import networkx as nx; nx.topological_sort(nx.DiGraph([(1, 2), (2, 1)])) and list(nx.topological_sort(nx.DiGraph([(1, 2), (2, 1)])))
import networkx as nx; nx.Graph().remove_node(1)
import networkx as nx; nx.Graph().remove_edge(1, 2)
import networkx as nx; nx.DiGraph([(1, 2)]).successors(9)
import sympy; sympy.Matrix([[1, 2], [3, 4]]) * sympy.Matrix([[1, 2, 3]])
import sympy; sympy.sympify("x +* 2")
import sympy; sympy.Matrix([[1, 2], [2, 4]]).inv()
import mpmath; mpmath.mpf("not a number")
import pyparsing as pp; pp.Word(pp.nums).parse_string("abc")
import pydantic; pydantic.TypeAdapter(int).validate_python("x")
import pydantic
class M(pydantic.BaseModel):
    x: int
M.model_validate({"x": []}); M(y=1)
import attr
@attr.s
class C:
    x = attr.ib(validator=attr.validators.instance_of(int))
C("a")
import pygments.lexers; pygments.lexers.get_lexer_by_name("no-such-language-errdex")
import pygments.formatters; pygments.formatters.get_formatter_by_name("no-such-formatter")
import docutils.core; docutils.core.publish_string(".. nonsense-directive::", writer_name="null", settings_overrides={"halt_level": 2, "report_level": 5})
import jsonpointer; jsonpointer.resolve_pointer({}, "/a")
import jsonpointer; jsonpointer.JsonPointer("a")
import jsonpatch; jsonpatch.apply_patch({}, [{"op": "remove", "path": "/a"}])
import jsonpatch; jsonpatch.apply_patch({}, [{"op": "nope", "path": "/a"}])
import xmltodict; xmltodict.unparse({"a": 1, "b": 2})
import urllib3.util; urllib3.util.parse_url("http://[::1")
import urllib3; urllib3.util.Retry(total=0).increment(method="GET", url="/")
import itsdangerous; itsdangerous.Signer("k").unsign(b"value.bad")
import itsdangerous; itsdangerous.URLSafeSerializer("k").loads("x")
import rsa; rsa.PublicKey.load_pkcs1(b"not a key")
import pyasn1.codec.der.decoder as d; d.decode(b"\x30")
import sortedcontainers; sortedcontainers.SortedList([1]).remove(5)
import sortedcontainers; sortedcontainers.SortedList().pop()
import traitlets
class T(traitlets.HasTraits):
    n = traitlets.Int()
T(n="x")
import parso; parso.load_grammar(version="1.0")
import graphql; graphql.parse("{ a ")
import graphql; graphql.build_schema("type Query { a: Nope }")
import trio; trio.run(lambda: 1)
import trio; trio.current_time()
import flask; flask.Flask(__name__).add_url_rule("/a", "x", lambda: 1) or flask.Flask(__name__).add_url_rule("a", "x", lambda: 1)
import flask
app = flask.Flask(__name__)
app.route("/a")(lambda: 1); app.add_url_rule("/b", "<lambda>", lambda: 2)
import six; six.reraise(ValueError, ValueError("six reraise"))
import wcwidth; wcwidth.wcswidth(5)
import charset_normalizer; charset_normalizer.from_path("/no/such/errdex/file")
import botocore.session; botocore.session.get_session().create_client("s3", region_name="us-east-1").get_object(Bucket=1)
import botocore.session; botocore.session.get_session().create_client("no-such-service-errdex")
import jedi; jedi.Script("x", path="x.py").complete(5, 0)
import libcst; libcst.parse_module("def (:")
import libcst; libcst.parse_expression("1 +")
import dotenv; dotenv.dotenv_values(stream=None, dotenv_path=None) and dotenv.main.DotEnv(None).dict() and dotenv.get_key("/no/such/errdex.env", "A", encoding=5)
import pexpect; pexpect.spawn("/no/such/errdex/program")
import responses; responses.add("NOPE", "http://x")
import s3transfer.utils; s3transfer.utils.validate_all_known_args({"Nope": 1}, ["A"])
import cfnlint.decode; cfnlint.decode.decode_str("{")
import prompt_toolkit.key_binding; prompt_toolkit.key_binding.KeyBindings().add("not-a-key-errdex")
import lazy_object_proxy; lazy_object_proxy.Proxy(1)()
import referencing; referencing.Registry().get_or_retrieve("urn:nope")
import openapi_spec_validator; openapi_spec_validator.validate({"openapi": "3.0.0"})
'''


def split_cases(text):
    """Cases are separated by lines that start a new `import`."""
    cases, current = [], []
    for line in text.strip("\n").splitlines():
        if line.startswith("import ") and current and not current[-1].startswith("@"):
            # A new top-level import starts a new case, unless the case so
            # far is still opening a block.
            if not current[-1].endswith(":") and not current[-1].startswith((" ", "\t")):
                cases.append("\n".join(current))
                current = []
        current.append(line)
    if current:
        cases.append("\n".join(current))
    return cases


def installed(path):
    """(site-packages folder, owning distribution) of an installed file."""
    site = next((s for s in SITES if path.startswith(s + os.sep)), None)
    owner = OWNER.get(path)
    return (site, owner) if site and owner else None


counts = Counts()
for n, code, err, (site, owner), line in raised(split_cases(CASES), installed, "an installed distribution", counts,
                                                quiet_stderr=True):
    path = innermost(err)[0]
    print(json.dumps({
        "case": n,
        "code": code,
        "traceback": "".join(traceback.format_exception(type(err), err, err.__traceback__)),
        "last": "".join(traceback.format_exception_only(type(err), err)),
        "file": os.path.relpath(path, site).replace(os.sep, "/"),
        "line": line,
        "dist": owner[0],
        "version": owner[1],
    }))
print("kept %d cases, left out %d" % (counts.kept, counts.left_out), file=sys.stderr)
sys.stdout.flush()
sys.stderr.flush()
os._exit(0)
