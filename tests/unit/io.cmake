# Unit tests of the recording layer (snn/src/io, snn/src/recording): SONATA HDF5 files, CSV, checksums,
# plots, and the recorded run.
volley_test(test_sonata_spikes unit/test_sonata_spikes.cpp LIBS volley::snn volley_snn_private)
volley_test(test_sonata_report unit/test_sonata_report.cpp LIBS volley::snn volley_snn_private)
volley_test(test_sha256 unit/test_sha256.cpp LIBS volley::snn)
volley_test(test_spike_checksum unit/test_spike_checksum.cpp LIBS volley::snn)
volley_test(test_spike_csv unit/test_spike_csv.cpp LIBS volley::snn)
volley_test(test_raster_plot unit/test_raster_plot.cpp LIBS volley::snn)
volley_test(test_recorded_run unit/test_recorded_run.cpp LIBS volley::snn)
