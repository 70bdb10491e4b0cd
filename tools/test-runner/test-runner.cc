/*
 * transportlab-test-runner: ns-3's TestRunner over the TestSuites of our modules (they
 * register themselves when libtransportlab-tests.so loads). The same command line as
 * ns-3's test-runner: --list, --suite=<name>, --verbose, --fullness=QUICK, ...
 *
 * --with-failing-suite registers one more suite, "transportlab-failing-suite", whose
 * only test case fails: tests/test_cxx_suites.py runs it to show that a failing suite
 * makes the runner (and so `make test`) fail. It exists only when asked for.
 */
#include "ns3/test.h"

#include <cstring>
#include <vector>

namespace
{

class FailingTestCase : public ns3::TestCase
{
  public:
    FailingTestCase()
        : ns3::TestCase("a test case that fails on purpose")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(1 + 1, 3, "this suite must fail");
    }
};

class FailingTestSuite : public ns3::TestSuite
{
  public:
    FailingTestSuite()
        : ns3::TestSuite("transportlab-failing-suite", Type::UNIT)
    {
        AddTestCase(new FailingTestCase(), TestCase::Duration::QUICK);
    }
};

} // namespace

int
main(int argc, char** argv)
{
    std::vector<char*> args;
    bool failing = false;
    for (int i = 0; i < argc; ++i)
    {
        if (std::strcmp(argv[i], "--with-failing-suite") == 0)
        {
            failing = true;
            continue;
        }
        args.push_back(argv[i]);
    }
    if (failing)
    {
        static FailingTestSuite suite; // registers itself with the TestRunner
    }
    const int count = static_cast<int>(args.size());
    // ns-3's TestRunner walks argv up to its terminating null pointer, as main's argv has.
    args.push_back(nullptr);
    return ns3::TestRunner::Run(count, args.data());
}
