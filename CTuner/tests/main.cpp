// main.cpp — runs every engine unit test (make engine-test); exit status 1 when any failed.
#include "Check.hpp"

#include <cstring>

int main(int argc, char **argv) {
    int failedTests = 0;
    for (const check::Test &t : check::all()) {
        if (argc > 1 && !std::strstr(t.name, argv[1])) continue;
        const int before = check::failures();
        t.body();
        const bool ok = check::failures() == before;
        failedTests += !ok;
        std::printf("%s %s\n", ok ? "passed" : "FAILED", t.name);
    }
    std::printf("engine unit tests: %zu run, %d failed\n", check::all().size(), failedTests);
    return failedTests ? 1 : 0;
}
