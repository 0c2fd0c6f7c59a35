// A race-free OpenMP program that scripts/check-sanitizers runs under ThreadSanitizer before the
// tsan preset's tests: threads write a vector in a worksharing loop, and after its barrier one
// thread reads all of it. Built by g++ against GCC's libgomp (not instrumented), TSan reports
// data races here (barrier ordering it cannot see); built by clang against LLVM's libomp, whose
// Archer tool reports the barrier to TSan, it reports none (tests/README.md, "Sanitizers").
#include <cstdio>
#include <vector>
int main() {
    std::vector<double> a(1000, 1.0), partial(4, 0.0);
    double total = 0;
#pragma omp parallel num_threads(4)
    {
        for (int step = 0; step < 20; ++step) {
#pragma omp for
            for (int i = 0; i < 1000; ++i) a[i] = a[i] * 0.5 + step;
            // implicit barrier; then every thread reads what others wrote
#pragma omp single
            { double s = 0; for (double x : a) s += x; total += s; }
        }
    }
    std::printf("%g\n", total);
}
