// python_docstrings (scan/python/frontend.h): the docstrings of a module,
// its classes and functions, read without a parse.
#include <gtest/gtest.h>

#include "scan/python/frontend.h"

namespace errdex::scan {
namespace {

TEST(PythonDocstrings, ModuleClassesFunctionsAndTheirLines) {
  const char* src =
      "#!/usr/bin/env python3\n"
      "r'''The module.\n"
      "\n"
      "Second line.'''\n"
      "import os\n"
      "\n"
      "class Wrapper(Base,\n"
      "              metaclass=M):  # a comment: with a colon\n"
      "    \"Wraps.\"\n"
      "\n"
      "    def wrap(self, text=\"a:b\", width={'k': 1}):\n"
      "        # a comment first\n"
      "        \"\"\"Raises ValueError\n"
      "        when width <= 0.\"\"\"\n"
      "        s = '''\n"
      "def not_a_function():\n"
      "    'not a docstring'\n"
      "'''\n"
      "        return s\n"
      "\n"
      "    def short(self): return 1\n"
      "\n"
      "    async def fetch(self):\n"
      "        f\"no {docstring}\"\n"
      "\n"
      "    def later(self):\n"
      "        x = 1\n"
      "        'not the first statement'\n"
      "\n"
      "def f(\n"
      "    a,\n"
      "):\n"
      "    '''F's doc.'''\n";
  auto docs = python_docstrings(src);
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(docs[0].owner, "");
  EXPECT_EQ(docs[0].line, 2);
  EXPECT_EQ(docs[0].text, "The module.\n\nSecond line.");
  EXPECT_EQ(docs[1].owner, "Wrapper");
  EXPECT_EQ(docs[1].line, 9);
  EXPECT_EQ(docs[1].text, "Wraps.");
  EXPECT_EQ(docs[2].owner, "wrap");
  EXPECT_EQ(docs[2].line, 13);
  EXPECT_EQ(docs[2].text, "Raises ValueError\n        when width <= 0.");
  EXPECT_EQ(docs[3].owner, "f");
  EXPECT_EQ(docs[3].line, 33);
  EXPECT_EQ(docs[3].text, "F's doc.");
}

TEST(PythonDocstrings, BadInputEndsCleanly) {
  EXPECT_TRUE(python_docstrings("").empty());
  EXPECT_TRUE(python_docstrings("def").empty());
  EXPECT_TRUE(python_docstrings("def f(:\n").empty());
  auto open = python_docstrings("def f():\n    '''never closed\n");
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].text, "never closed\n");
  EXPECT_TRUE(python_docstrings(std::string(100000, '(')).empty());
}

}  // namespace
}  // namespace errdex::scan
