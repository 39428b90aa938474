// Check.hpp — the engine unit tests' few lines of framework: TEST(name) registers a test, CHECK(cond,
// fmt, …) records a failure with its values; main runs every test and prints one line per test.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace check {
struct Test {
    const char *name;
    std::function<void()> body;
};
inline std::vector<Test> &all() {
    static std::vector<Test> tests;
    return tests;
}
inline int &failures() {
    static int n = 0;
    return n;
}
struct Register {
    Register(const char *name, std::function<void()> body) { all().push_back({name, std::move(body)}); }
};
} // namespace check

#define CHECK_CAT2(a, b) a##b
#define CHECK_CAT(a, b) CHECK_CAT2(a, b)
#define TEST(name)                                                                   \
    static void name();                                                              \
    static check::Register CHECK_CAT(register_, name)(#name, name);                  \
    static void name()
#define CHECK(cond, ...)                                                             \
    do {                                                                             \
        if (!(cond)) {                                                               \
            ++check::failures();                                                     \
            std::printf("    FAILED %s:%d: %s — ", __FILE__, __LINE__, #cond);       \
            std::printf(__VA_ARGS__);                                                \
            std::printf("\n");                                                       \
        }                                                                            \
    } while (0)
