# Tests of the pipeline library (docs/demo.md, "The pipeline as a library"): its stages run
# alone, a stage's saved result read back gives the same next stage, and bad options are refused
# by name. Skipped without Fashion-MNIST. (`volley demo` itself: tests/cli/test_demo.cpp; the
# Python volley.pipeline against it: tests/python/test_pipeline.py.)
volley_test(test_pipeline unit/test_pipeline_stages.cpp LIBS volley::pipeline hdf5::hdf5)
