// The Python client (clients/python) in real interpreters against a real
// errdex serve: sys.excepthook and threading.excepthook, a server down or
// silent, the pytest plugin on a real failing test, IPython with the
// extension, and an offline pip install.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "support/process.h"
#include "web/http_client.h"

namespace errdex {
namespace {

using testing::errdex_cmd;
using testing::run;
using testing::shell_quote;
using testing::TempDir;
using testing::write_file;

const std::string k_client = std::string(ERRDEX_SOURCE_DIR) + "/clients/python";

class PythonClient : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    s_dir = new TempDir;
    write_file(*s_dir / "repo/shop/__init__.py", "");
    write_file(*s_dir / "repo/shop/cart.py",
               "def add(quantity):\n    if quantity < 1:\n"
               "        raise ValueError(f\"quantity must be at least 1, got {quantity}\")\n    return quantity\n");
    s_db = "sqlite:" + (*s_dir / "c.db").string();
    auto scan = run(errdex_cmd() + " scan " + shell_quote((*s_dir / "repo").string()) + " --repo acme/shop -q --db " + s_db);
    ASSERT_EQ(scan.code, 0) << scan.err;
    s_server = new testing::ServeProcess(s_db);
    ASSERT_GT(s_server->port(), 0) << s_server->output();
  }
  static void TearDownTestSuite() {
    delete s_server;
    delete s_dir;
  }
  // Runs `python` with the client and the repository importable.
  static testing::RunResult python(const std::string& python, const std::string& code, const std::string& url) {
    return run("env ERRDEX_URL=" + url + " PYTHONPATH=" + shell_quote(k_client + ":" + (*s_dir / "repo").string()) +
               " " + python + " -c " + shell_quote(code));
  }
  static std::string url() { return "http://127.0.0.1:" + std::to_string(s_server->port()); }

  static TempDir* s_dir;
  static std::string s_db;
  static testing::ServeProcess* s_server;
};
TempDir* PythonClient::s_dir = nullptr;
std::string PythonClient::s_db;
testing::ServeProcess* PythonClient::s_server = nullptr;

const char* k_raise = "import errdex; errdex.install()\nimport shop.cart\nshop.cart.add(0)\n";

TEST_F(PythonClient, ExceptHookPrintsTheAnswerUnderTheTraceback) {
  auto r = python("python3", k_raise, url());
  EXPECT_EQ(r.code, 1);
  auto tb = r.err.find("ValueError: quantity must be at least 1, got 0\n");
  ASSERT_NE(tb, std::string::npos) << r.err;
  auto answer = r.err.find("errdex: ValueError raised at shop/cart.py:3 (acme/shop)", tb);
  EXPECT_NE(answer, std::string::npos) << r.err;
  EXPECT_NE(r.err.find("errdex:   quantity = 0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("errdex:   fix: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("errdex:   " + url() + "/errors/"), std::string::npos) << r.err;

  // A thread's uncaught exception.
  r = python("python3",
             "import errdex, threading; errdex.install()\nimport shop.cart\n"
             "t = threading.Thread(target=shop.cart.add, args=(-2,)); t.start(); t.join()\nprint('main goes on')\n",
             url());
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "main goes on\n");
  EXPECT_NE(r.err.find("errdex: ValueError raised at shop/cart.py:3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("errdex:   quantity = -2"), std::string::npos) << r.err;
}

// The program's own exception raised from the repository's: no site raises
// it, so the answer is its cause's.
TEST_F(PythonClient, AChainOfTheProgramsOwnErrorIsAnsweredByItsCause) {
  auto r = python("python3",
                  "import errdex; errdex.install()\nimport shop.cart\n"
                  "class OrderError(Exception):\n    pass\n"
                  "try:\n    shop.cart.add(-5)\nexcept ValueError as e:\n"
                  "    raise OrderError('the order could not be placed') from e\n",
                  url());
  EXPECT_EQ(r.code, 1);
  auto tb = r.err.find("OrderError: the order could not be placed\n");
  ASSERT_NE(tb, std::string::npos) << r.err;
  EXPECT_NE(r.err.find("errdex: its cause, ValueError raised at shop/cart.py:3 (acme/shop)", tb), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("errdex:   quantity = -5"), std::string::npos) << r.err;
}

TEST_F(PythonClient, NothingExtraAndNoWaitWhenTheServerIsDownOrSilent) {
  auto plain = run("env PYTHONPATH=" + shell_quote((*s_dir / "repo").string()) +
                   " python3 -c " + shell_quote("import shop.cart\nshop.cart.add(0)\n"));
  // Nothing listens on port 1.
  auto down = python("python3", k_raise, "http://127.0.0.1:1");
  EXPECT_EQ(down.code, 1);
  EXPECT_EQ(down.err.find("\nerrdex:"), std::string::npos) << down.err;
  EXPECT_EQ(down.err.substr(down.err.find("ValueError")), plain.err.substr(plain.err.find("ValueError")));

  // A server that takes the connection and never answers: the hook gives
  // up after ERRDEX_TIMEOUT, and the program exits as it would (timeout's
  // 124 would mean it hung).
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(fd, 8), 0);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  std::string silent = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
  auto hung = run("env ERRDEX_TIMEOUT=0.3 ERRDEX_URL=" + silent + " PYTHONPATH=" +
                  shell_quote(k_client + ":" + (*s_dir / "repo").string()) + " timeout 60 python3 -c " +
                  shell_quote(k_raise));
  ::close(fd);
  EXPECT_EQ(hung.code, 1) << "124 means the hook did not give up";
  EXPECT_EQ(hung.err.find("\nerrdex:"), std::string::npos) << hung.err;
}

TEST_F(PythonClient, PytestPluginAddsASectionToTheFailure) {
  write_file(*s_dir / "tests_here/test_cart.py", "import shop.cart\n\n\ndef test_add_nothing():\n    shop.cart.add(0)\n");
  auto r = run("cd " + shell_quote((*s_dir / "tests_here").string()) + " && env ERRDEX_URL=" + url() +
               " PYTHONPATH=" + shell_quote(k_client + ":" + (*s_dir / "repo").string()) +
               " /usr/bin/python3 -m pytest -q -p errdex.pytest_plugin -p no:cacheprovider test_cart.py");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  auto section = r.out.find(" errdex ");
  ASSERT_NE(section, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("errdex: ValueError raised at shop/cart.py:3 (acme/shop)", section), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 failed"), std::string::npos) << r.out;
}

TEST_F(PythonClient, IPythonExtension) {
  auto r = python("/usr/bin/ipython3 --no-banner --colors=NoColor",
                  "get_ipython().run_line_magic('load_ext', 'errdex'); import shop.cart; shop.cart.add(0)", url());
  std::string all = r.out + r.err;
  auto tb = all.find("ValueError: quantity must be at least 1, got 0");
  ASSERT_NE(tb, std::string::npos) << all;
  EXPECT_NE(all.find("errdex: ValueError raised at shop/cart.py:3 (acme/shop)", tb), std::string::npos) << all;
}

// `%run script.py` catches the script's error itself and shows it without
// the cell's custom exception handler; loaded again, one answer, not two.
TEST_F(PythonClient, IPythonExtensionExplainsAScriptUnderRun) {
  write_file(*s_dir / "scripts/order.py", "import shop.cart\nshop.cart.add(-3)\n");
  auto r = python("/usr/bin/ipython3 --no-banner --colors=NoColor",
                  "ip = get_ipython(); ip.run_line_magic('load_ext', 'errdex'); ip.run_line_magic('reload_ext', 'errdex'); "
                  "ip.run_line_magic('run', " + shell_quote((*s_dir / "scripts/order.py").string()) + ")",
                  url());
  std::string all = r.out + r.err;
  auto tb = all.find("ValueError: quantity must be at least 1, got -3");
  ASSERT_NE(tb, std::string::npos) << all;
  auto answer = all.find("errdex: ValueError raised at shop/cart.py:3 (acme/shop)", tb);
  ASSERT_NE(answer, std::string::npos) << all;
  EXPECT_EQ(all.find("errdex: ValueError raised", answer + 1), std::string::npos) << "answered twice: " << all;
}

TEST_F(PythonClient, InstallsOfflineWithPip) {
  TempDir venv;
  auto made = run("python3 -m venv " + shell_quote(venv.str()));
  ASSERT_EQ(made.code, 0) << made.err;
  std::string py = shell_quote((venv / "bin/python").string());
  // As the README says, with the index out of reach: its own backend needs nothing.
  auto pip = run(py + " -m pip install --quiet --no-index --disable-pip-version-check " + shell_quote(k_client));
  ASSERT_EQ(pip.code, 0) << pip.out << pip.err;
  auto check = run("cd / && " + py + " -c " +
                   shell_quote("import errdex, importlib.metadata as m\n"
                               "print([e.value for e in m.entry_points(group='pytest11') if e.name == 'errdex'])"));
  EXPECT_EQ(check.code, 0) << check.err;
  EXPECT_NE(check.out.find("errdex.pytest_plugin"), std::string::npos) << check.out;
}

}  // namespace
}  // namespace errdex
