"""float32 softmax and log_softmax (along any dim; their gradients along the last), sigmoid,
cross_entropy and the binary cross-entropy losses give PyTorch 2.15's bits: its CPU vector
code (SLEEF's expf/logf, `at::vec` reductions with lane accumulators and a shuffle tree, the
vector body and scalar tail of an elementwise loop split per thread, columns reduced W at a
time along other dims), nll_loss's cascade of partial sums, and the losses' gradient formulas
in PyTorch's order of operations.

PyTorch's bits depend on its vector width, so each case records two hashes of PyTorch's
result bytes: on a CPU with AVX-512 (F/VL/DQ/BW) and with AVX2 only
(`ATEN_CPU_CAPABILITY=avx2`). LEAFGRAD_TEST_TORCH=1 runs the table against PyTorch;
`python test_vector_kernel_bits.py` (with LEAFGRAD_TEST_TORCH=1) prints it."""
import hashlib
import os

import pytest

import leafgrad as torch
import leafgrad.nn.functional as F

# name: (hash with 16 float lanes, hash with 8)
RECORDED = {
    'softmax 1x1, 1 threads': ('e00e5eb9444182f3', 'e00e5eb9444182f3'),
    'log_softmax 1x1, 1 threads': ('df3f619804a92fdb', 'df3f619804a92fdb'),
    'softmax grad 1x1, 1 threads': ('df3f619804a92fdb', 'df3f619804a92fdb'),
    'log_softmax grad 1x1, 1 threads': ('df3f619804a92fdb', 'df3f619804a92fdb'),
    'softmax 7x1, 1 threads': ('6f3a1a9d59ae648b', '6f3a1a9d59ae648b'),
    'log_softmax 7x1, 1 threads': ('3addfb141cd7c9c4', '3addfb141cd7c9c4'),
    'softmax grad 7x1, 1 threads': ('3addfb141cd7c9c4', '3addfb141cd7c9c4'),
    'log_softmax grad 7x1, 1 threads': ('3addfb141cd7c9c4', '3addfb141cd7c9c4'),
    'softmax 200x1, 1 threads': ('1ead7355857d535b', '1ead7355857d535b'),
    'log_softmax 200x1, 1 threads': ('67042dfda5683aea', '67042dfda5683aea'),
    'softmax grad 200x1, 1 threads': ('67042dfda5683aea', '67042dfda5683aea'),
    'log_softmax grad 200x1, 1 threads': ('67042dfda5683aea', '67042dfda5683aea'),
    'softmax 1x3, 1 threads': ('e83f86056e028cdb', 'e83f86056e028cdb'),
    'log_softmax 1x3, 1 threads': ('2d98b78ae7cff122', '2d98b78ae7cff122'),
    'softmax grad 1x3, 1 threads': ('3e826abf9c55fc2d', '3e826abf9c55fc2d'),
    'log_softmax grad 1x3, 1 threads': ('95570f552e7def0d', '95570f552e7def0d'),
    'softmax 7x3, 1 threads': ('cffa77b525661277', 'cffa77b525661277'),
    'log_softmax 7x3, 1 threads': ('fb4e1ff395db537a', 'fb4e1ff395db537a'),
    'softmax grad 7x3, 1 threads': ('2a1edba1870157c5', '2a1edba1870157c5'),
    'log_softmax grad 7x3, 1 threads': ('150898f192d1417e', '150898f192d1417e'),
    'softmax 200x3, 1 threads': ('a7c5fc4f6a417579', 'a7c5fc4f6a417579'),
    'log_softmax 200x3, 1 threads': ('f031644b12d76a76', 'f031644b12d76a76'),
    'softmax grad 200x3, 1 threads': ('9e6db58ee0319dfb', '9e6db58ee0319dfb'),
    'log_softmax grad 200x3, 1 threads': ('a6a96923478b50a6', 'a6a96923478b50a6'),
    'softmax 1x15, 1 threads': ('15f02ed1c1f74bff', '907961f244c1f1e9'),
    'log_softmax 1x15, 1 threads': ('b9fd4f8acbf88140', '63c4fe4abca24168'),
    'softmax grad 1x15, 1 threads': ('b6a523737f9232b8', '9f90ffebe200f647'),
    'log_softmax grad 1x15, 1 threads': ('6e52fbd3c4f7f46a', 'fe03d3331d099a58'),
    'softmax 7x15, 1 threads': ('7b2da8f400f54a58', '0b98d7c722bb8509'),
    'log_softmax 7x15, 1 threads': ('d2802986372e4e8a', 'c124a05ea9bdf7db'),
    'softmax grad 7x15, 1 threads': ('2dbc293312bc1fef', '5d13783807ca25f5'),
    'log_softmax grad 7x15, 1 threads': ('5999a9a1ad860ab5', 'b6ac35922230e557'),
    'softmax 200x15, 1 threads': ('867611e3c98ba1e4', 'cf69b7764f0bb450'),
    'log_softmax 200x15, 1 threads': ('36a981aa8cf11c41', '3469168b2cf61202'),
    'softmax grad 200x15, 1 threads': ('2e2ddfe2fd729573', '3941a1abd2c411c9'),
    'log_softmax grad 200x15, 1 threads': ('d0577a7ae2052c36', '311e3bb25ac239d0'),
    'softmax 1x16, 1 threads': ('3b34fd814654dde2', '3b34fd814654dde2'),
    'log_softmax 1x16, 1 threads': ('3dc44b78258976a7', '3dc44b78258976a7'),
    'softmax grad 1x16, 1 threads': ('129fac7853a61279', '129fac7853a61279'),
    'log_softmax grad 1x16, 1 threads': ('f781d292aa8e4eaa', 'f781d292aa8e4eaa'),
    'softmax 7x16, 1 threads': ('6d5b4b2808663866', '6d5b4b2808663866'),
    'log_softmax 7x16, 1 threads': ('7b81fa59d2bc1546', '7b81fa59d2bc1546'),
    'softmax grad 7x16, 1 threads': ('2d288ad9a5be17be', '2d288ad9a5be17be'),
    'log_softmax grad 7x16, 1 threads': ('ac25c049225e834c', 'ac25c049225e834c'),
    'softmax 200x16, 1 threads': ('f4c13eaea6aaa53b', 'f4c13eaea6aaa53b'),
    'log_softmax 200x16, 1 threads': ('c33c40c36b14f961', 'c33c40c36b14f961'),
    'softmax grad 200x16, 1 threads': ('8a94de03f6b933f7', '8a94de03f6b933f7'),
    'log_softmax grad 200x16, 1 threads': ('5cbd0f30143bec0e', '5cbd0f30143bec0e'),
    'softmax 1x17, 1 threads': ('0d16c6f262407c9e', '0d16c6f262407c9e'),
    'log_softmax 1x17, 1 threads': ('2c8236a07c7db317', '2c8236a07c7db317'),
    'softmax grad 1x17, 1 threads': ('33726bb25ef51c76', '368a294997fbef6b'),
    'log_softmax grad 1x17, 1 threads': ('3344b8c61a7eecd5', '3344b8c61a7eecd5'),
    'softmax 7x17, 1 threads': ('61dd9b3322ad7552', '61dd9b3322ad7552'),
    'log_softmax 7x17, 1 threads': ('8eb6496d16c0972d', '8eb6496d16c0972d'),
    'softmax grad 7x17, 1 threads': ('7cc41c69fd4b66e1', 'aeba7c17de00112a'),
    'log_softmax grad 7x17, 1 threads': ('c0d5f92e7aff1672', 'a2eb3d6fe796c450'),
    'softmax 200x17, 1 threads': ('7b4e489858322990', '0be20732121ccf3f'),
    'log_softmax 200x17, 1 threads': ('af858415797d0f11', '8b61c0ef14f5d39e'),
    'softmax grad 200x17, 1 threads': ('16b220adb6287b89', 'e69298013c7982ce'),
    'log_softmax grad 200x17, 1 threads': ('9f0d59b03fc7c0aa', 'f156678596f63158'),
    'softmax 1x33, 1 threads': ('2dc453e9c49e106c', '2dc453e9c49e106c'),
    'log_softmax 1x33, 1 threads': ('d575f6a465e96a92', 'd575f6a465e96a92'),
    'softmax grad 1x33, 1 threads': ('906697180af5df44', '906697180af5df44'),
    'log_softmax grad 1x33, 1 threads': ('ab3a8fa8ccd3e501', 'ab3a8fa8ccd3e501'),
    'softmax 7x33, 1 threads': ('c0d9646a1e18c3c4', 'c0d9646a1e18c3c4'),
    'log_softmax 7x33, 1 threads': ('92000eff05c5625e', '92000eff05c5625e'),
    'softmax grad 7x33, 1 threads': ('84643a731d8e2ba2', '9173d6b5cff30630'),
    'log_softmax grad 7x33, 1 threads': ('e3bd1833c7ec3bee', '5d8a6a3e6a630ced'),
    'softmax 200x33, 1 threads': ('a509bb4c10bb87b5', '73b6842c74ac4d5b'),
    'log_softmax 200x33, 1 threads': ('6868189c96614b61', 'a93708ee76fa2dd4'),
    'softmax grad 200x33, 1 threads': ('551948db497a7a88', 'e28fbd0a574b4c9d'),
    'log_softmax grad 200x33, 1 threads': ('030b4b4cb65b69c0', 'ac9c49b5c84928b6'),
    'softmax 1x100, 1 threads': ('372f1395a409e255', '372f1395a409e255'),
    'log_softmax 1x100, 1 threads': ('5909ef8e7c2a0ead', '5909ef8e7c2a0ead'),
    'softmax grad 1x100, 1 threads': ('5258289f33263ea5', '5258289f33263ea5'),
    'log_softmax grad 1x100, 1 threads': ('4c958b927c213ae9', 'dbbcb53ef8f3340f'),
    'softmax 7x100, 1 threads': ('8c07a3f181856712', '8c07a3f181856712'),
    'log_softmax 7x100, 1 threads': ('2a82935b064ac380', '2a82935b064ac380'),
    'softmax grad 7x100, 1 threads': ('01b1fceaea3f53ef', '4402d66bc07f9f59'),
    'log_softmax grad 7x100, 1 threads': ('89db3acfc6ce1401', 'b52444c458726d7d'),
    'softmax 200x100, 1 threads': ('b004e8caf8a20297', 'b004e8caf8a20297'),
    'log_softmax 200x100, 1 threads': ('8d9bc1268365ea09', '8d9bc1268365ea09'),
    'softmax grad 200x100, 1 threads': ('0d414a0c091fbf32', '6b8e71d24a3fc140'),
    'log_softmax grad 200x100, 1 threads': ('0dac0e2a082363ec', 'b95eafc6641c0b36'),
    'softmax 1x1000, 1 threads': ('329e36ce22fc2863', '238de43a2bbe2417'),
    'log_softmax 1x1000, 1 threads': ('332d05d34f8cb782', '332d05d34f8cb782'),
    'softmax grad 1x1000, 1 threads': ('c7f312cf4e1e26cc', 'b4bfb475f226908c'),
    'log_softmax grad 1x1000, 1 threads': ('d2bc088be38e5b5c', 'b2613c8ca326e595'),
    'softmax 7x1000, 1 threads': ('f7934cdaf3f57966', '6231877f0f08f654'),
    'log_softmax 7x1000, 1 threads': ('3b575e709dacb6f9', '3b575e709dacb6f9'),
    'softmax grad 7x1000, 1 threads': ('907f4c5225ffb2fc', '10d043a3ffa81dcb'),
    'log_softmax grad 7x1000, 1 threads': ('8a28ab3986eb7e80', '3ef7a037a59a10ca'),
    'softmax 200x1000, 1 threads': ('6e1ad8c43e75aa5c', 'ed1bb88f4176e3f2'),
    'log_softmax 200x1000, 1 threads': ('3bb87db6f1389569', '3bb87db6f1389569'),
    'softmax grad 200x1000, 1 threads': ('482659848747ede2', 'f584ee52a44c7ea0'),
    'log_softmax grad 200x1000, 1 threads': ('4ec4563ab0eee282', '9c511e28f92862eb'),
    'softmax of a transposed view, 1 threads': ('02cccd457a16b2b8', '02cccd457a16b2b8'),
    'softmax dim 1 of (4, 5, 6, 7), 1 threads': ('736474e95ca9b590', '978d5bdcdfa1a8f2'),
    'log_softmax dim 1 of (4, 5, 6, 7), 1 threads': ('28871cde70bd3473', '28871cde70bd3473'),
    'softmax dim 0 of (30, 17), 1 threads': ('287f7692e2c43421', '287f7692e2c43421'),
    'log_softmax dim 0 of (30, 17), 1 threads': ('4ad7ba9406238075', '4ad7ba9406238075'),
    'softmax dim 1 of (3, 50, 40), 1 threads': ('9544df737517efb4', '0d3a1d9c3434dbdf'),
    'log_softmax dim 1 of (3, 50, 40), 1 threads': ('9a84ecff2b77cd9a', '9a84ecff2b77cd9a'),
    'softmax dim 0 of (7, 3000), 1 threads': ('0fa0f2376299a3d2', '0fa0f2376299a3d2'),
    'log_softmax dim 0 of (7, 3000), 1 threads': ('693e18f6be4bf1ba', '693e18f6be4bf1ba'),
    'cross_entropy of a 4-d input, 1 threads': ('e2e732c187701ba0', 'e2e732c187701ba0'),
    'softmax of large and infinite values, 1 threads': ('2f164f6178c83c9f', '2f164f6178c83c9f'),
    'log_softmax of large and infinite values, 1 threads': ('322f3d835db92210', '322f3d835db92210'),
    'sigmoid 31, 1 threads': ('b7b9a1dabdee252b', '4129022bb0206d9b'),
    'sigmoid_ 31, 1 threads': ('b7b9a1dabdee252b', '4129022bb0206d9b'),
    'sigmoid 32, 1 threads': ('5c5134f81a517997', '5c5134f81a517997'),
    'sigmoid_ 32, 1 threads': ('5c5134f81a517997', '5c5134f81a517997'),
    'sigmoid 33, 1 threads': ('1b7743042a0b970f', '1b7743042a0b970f'),
    'sigmoid_ 33, 1 threads': ('1b7743042a0b970f', '1b7743042a0b970f'),
    'sigmoid 100, 1 threads': ('7a4f20769a443cf9', '7a4f20769a443cf9'),
    'sigmoid_ 100, 1 threads': ('7a4f20769a443cf9', '7a4f20769a443cf9'),
    'sigmoid 40000, 1 threads': ('f4ad6097170d5e0d', 'f4ad6097170d5e0d'),
    'sigmoid_ 40000, 1 threads': ('f4ad6097170d5e0d', 'f4ad6097170d5e0d'),
    'sigmoid 100003, 1 threads': ('cfdf1eb96a7f00bc', 'cfdf1eb96a7f00bc'),
    'sigmoid_ 100003, 1 threads': ('cfdf1eb96a7f00bc', 'cfdf1eb96a7f00bc'),
    'sigmoid of a transposed view, 1 threads': ('548be2c0b1576a86', '548be2c0b1576a86'),
    'sigmoid of row-sliced columns, 1 threads': ('d0ca0143ed91081f', 'd0ca0143ed91081f'),
    'sigmoid of every other column, 1 threads': ('f2bcca3c6ce73b23', 'f2bcca3c6ce73b23'),
    'sigmoid grad, 1 threads': ('6e642d985c3027f8', '6e642d985c3027f8'),
    'cross_entropy mean 1x5, 1 threads': ('a7a13701e018c131', 'a7a13701e018c131'),
    'cross_entropy grad mean 1x5, 1 threads': ('697960261f736210', '697960261f736210'),
    'cross_entropy sum 1x5, 1 threads': ('a7a13701e018c131', 'a7a13701e018c131'),
    'cross_entropy grad sum 1x5, 1 threads': ('697960261f736210', '697960261f736210'),
    'cross_entropy weighted mean 1x5, 1 threads': ('a7a13701e018c131', 'a7a13701e018c131'),
    'cross_entropy grad weighted mean 1x5, 1 threads': ('697960261f736210', '697960261f736210'),
    'cross_entropy weighted sum 1x5, 1 threads': ('900d190e0acb0195', '900d190e0acb0195'),
    'cross_entropy grad weighted sum 1x5, 1 threads': ('ad52ea07e8c39ff4', 'ad52ea07e8c39ff4'),
    'cross_entropy ignored 1x5, 1 threads': ('220f6486a6464704', '220f6486a6464704'),
    'cross_entropy grad ignored 1x5, 1 threads': ('de47c9b27eb8d300', 'de47c9b27eb8d300'),
    'cross_entropy weighted ignored 1x5, 1 threads': ('220f6486a6464704', '220f6486a6464704'),
    'cross_entropy grad weighted ignored 1x5, 1 threads': ('de47c9b27eb8d300', 'de47c9b27eb8d300'),
    'cross_entropy mean 17x10, 1 threads': ('a0bece07acd5eb23', 'a0bece07acd5eb23'),
    'cross_entropy grad mean 17x10, 1 threads': ('4e1d21d6808c9342', 'f0c86d063260a8e8'),
    'cross_entropy sum 17x10, 1 threads': ('a8f57eaffc6d40db', 'a8f57eaffc6d40db'),
    'cross_entropy grad sum 17x10, 1 threads': ('f4679c35dddcfedb', '9765dc683595c442'),
    'cross_entropy weighted mean 17x10, 1 threads': ('54cee2e21d27065a', '54cee2e21d27065a'),
    'cross_entropy grad weighted mean 17x10, 1 threads': ('fd40320d6958d432', 'b4018bb5f551dcba'),
    'cross_entropy weighted sum 17x10, 1 threads': ('112b695eebb82e73', '112b695eebb82e73'),
    'cross_entropy grad weighted sum 17x10, 1 threads': ('892a8bc88b1ab12d', 'bbcf54cae6f19bb6'),
    'cross_entropy ignored 17x10, 1 threads': ('ce71bd840f740b9e', 'ce71bd840f740b9e'),
    'cross_entropy grad ignored 17x10, 1 threads': ('9baa48cb9b7a0f72', '99fd17a931d65021'),
    'cross_entropy weighted ignored 17x10, 1 threads': ('75f45d94c7103c7e', '75f45d94c7103c7e'),
    'cross_entropy grad weighted ignored 17x10, 1 threads': ('75d326a7219ed52a', 'd3b91d6217051b80'),
    'cross_entropy mean 64x27, 1 threads': ('138979f860bf98b5', '138979f860bf98b5'),
    'cross_entropy grad mean 64x27, 1 threads': ('c199b62d0c7da516', '57939a487f988d0c'),
    'cross_entropy sum 64x27, 1 threads': ('89e3bdf4a7349833', '89e3bdf4a7349833'),
    'cross_entropy grad sum 64x27, 1 threads': ('ac4959bd52a89d97', '8fa6bb521e60f1f9'),
    'cross_entropy weighted mean 64x27, 1 threads': ('5d66febf8b7b89cd', '5d66febf8b7b89cd'),
    'cross_entropy grad weighted mean 64x27, 1 threads': ('fcd57f081cbcb476', 'aa5375578bfa1f19'),
    'cross_entropy weighted sum 64x27, 1 threads': ('e444c8eefda3c28c', 'e444c8eefda3c28c'),
    'cross_entropy grad weighted sum 64x27, 1 threads': ('39c89b905ab07988', 'f17244ed14ef12e9'),
    'cross_entropy ignored 64x27, 1 threads': ('2758213bca9c214f', '2758213bca9c214f'),
    'cross_entropy grad ignored 64x27, 1 threads': ('89548a222602eafc', '5e1a001517401a07'),
    'cross_entropy weighted ignored 64x27, 1 threads': ('1b4a7110015b51b1', '1b4a7110015b51b1'),
    'cross_entropy grad weighted ignored 64x27, 1 threads': ('1e7802329bdea74f', '83e5b2891c83927c'),
    'cross_entropy mean 300x3, 1 threads': ('12cd6bae0ba44073', '12cd6bae0ba44073'),
    'cross_entropy grad mean 300x3, 1 threads': ('f28a06581316fc2c', 'f28a06581316fc2c'),
    'cross_entropy sum 300x3, 1 threads': ('73ea20ec98e24b7c', '73ea20ec98e24b7c'),
    'cross_entropy grad sum 300x3, 1 threads': ('fcb2b55cbee9ecba', 'fcb2b55cbee9ecba'),
    'cross_entropy weighted mean 300x3, 1 threads': ('41184c2d636d953d', '41184c2d636d953d'),
    'cross_entropy grad weighted mean 300x3, 1 threads': ('18812c4ddbc13177', '18812c4ddbc13177'),
    'cross_entropy weighted sum 300x3, 1 threads': ('ff618c48cbe33995', 'ff618c48cbe33995'),
    'cross_entropy grad weighted sum 300x3, 1 threads': ('a94b8b04b3bf1143', 'a94b8b04b3bf1143'),
    'cross_entropy ignored 300x3, 1 threads': ('673d4db2bace58f2', '673d4db2bace58f2'),
    'cross_entropy grad ignored 300x3, 1 threads': ('785cbf9ce4da94c4', '785cbf9ce4da94c4'),
    'cross_entropy weighted ignored 300x3, 1 threads': ('d079dc19328d53d8', 'd079dc19328d53d8'),
    'cross_entropy grad weighted ignored 300x3, 1 threads': ('64b29e964c1d719c', '64b29e964c1d719c'),
    'binary_cross_entropy mean, 1 threads': ('99b9ddbf96298e52', '99b9ddbf96298e52'),
    'binary_cross_entropy grad mean, 1 threads': ('86dea0850b10db8f', '86dea0850b10db8f'),
    'binary_cross_entropy sum, 1 threads': ('a43f902cbe5d3b8c', 'a43f902cbe5d3b8c'),
    'binary_cross_entropy grad sum, 1 threads': ('70cd0f892997f895', '70cd0f892997f895'),
    'binary_cross_entropy weighted, 1 threads': ('fe564d1d36e61c48', 'fe564d1d36e61c48'),
    'binary_cross_entropy grad weighted, 1 threads': ('49203c7f140e31d5', '49203c7f140e31d5'),
    'bce_with_logits mean, 1 threads': ('d52072ddee4590c5', 'd52072ddee4590c5'),
    'bce_with_logits grad mean, 1 threads': ('e960af475293d6be', 'e960af475293d6be'),
    'bce_with_logits weighted, 1 threads': ('d08a4513c592c354', 'd08a4513c592c354'),
    'bce_with_logits grad weighted, 1 threads': ('1e119b4ae3e4de91', '1e119b4ae3e4de91'),
    'bce_with_logits pos_weight, 1 threads': ('af89d1f2471d7a12', 'af89d1f2471d7a12'),
    'bce_with_logits grad pos_weight, 1 threads': ('059fedcd1edac51e', '059fedcd1edac51e'),
    'softmax 1x1, 2 threads': ('e00e5eb9444182f3', 'e00e5eb9444182f3'),
    'log_softmax 1x1, 2 threads': ('df3f619804a92fdb', 'df3f619804a92fdb'),
    'softmax grad 1x1, 2 threads': ('df3f619804a92fdb', 'df3f619804a92fdb'),
    'log_softmax grad 1x1, 2 threads': ('df3f619804a92fdb', 'df3f619804a92fdb'),
    'softmax 7x1, 2 threads': ('6f3a1a9d59ae648b', '6f3a1a9d59ae648b'),
    'log_softmax 7x1, 2 threads': ('3addfb141cd7c9c4', '3addfb141cd7c9c4'),
    'softmax grad 7x1, 2 threads': ('3addfb141cd7c9c4', '3addfb141cd7c9c4'),
    'log_softmax grad 7x1, 2 threads': ('3addfb141cd7c9c4', '3addfb141cd7c9c4'),
    'softmax 200x1, 2 threads': ('1ead7355857d535b', '1ead7355857d535b'),
    'log_softmax 200x1, 2 threads': ('67042dfda5683aea', '67042dfda5683aea'),
    'softmax grad 200x1, 2 threads': ('67042dfda5683aea', '67042dfda5683aea'),
    'log_softmax grad 200x1, 2 threads': ('67042dfda5683aea', '67042dfda5683aea'),
    'softmax 1x3, 2 threads': ('e83f86056e028cdb', 'e83f86056e028cdb'),
    'log_softmax 1x3, 2 threads': ('2d98b78ae7cff122', '2d98b78ae7cff122'),
    'softmax grad 1x3, 2 threads': ('3e826abf9c55fc2d', '3e826abf9c55fc2d'),
    'log_softmax grad 1x3, 2 threads': ('95570f552e7def0d', '95570f552e7def0d'),
    'softmax 7x3, 2 threads': ('cffa77b525661277', 'cffa77b525661277'),
    'log_softmax 7x3, 2 threads': ('fb4e1ff395db537a', 'fb4e1ff395db537a'),
    'softmax grad 7x3, 2 threads': ('2a1edba1870157c5', '2a1edba1870157c5'),
    'log_softmax grad 7x3, 2 threads': ('150898f192d1417e', '150898f192d1417e'),
    'softmax 200x3, 2 threads': ('a7c5fc4f6a417579', 'a7c5fc4f6a417579'),
    'log_softmax 200x3, 2 threads': ('f031644b12d76a76', 'f031644b12d76a76'),
    'softmax grad 200x3, 2 threads': ('9e6db58ee0319dfb', '9e6db58ee0319dfb'),
    'log_softmax grad 200x3, 2 threads': ('a6a96923478b50a6', 'a6a96923478b50a6'),
    'softmax 1x15, 2 threads': ('15f02ed1c1f74bff', '907961f244c1f1e9'),
    'log_softmax 1x15, 2 threads': ('b9fd4f8acbf88140', '63c4fe4abca24168'),
    'softmax grad 1x15, 2 threads': ('b6a523737f9232b8', '9f90ffebe200f647'),
    'log_softmax grad 1x15, 2 threads': ('6e52fbd3c4f7f46a', 'fe03d3331d099a58'),
    'softmax 7x15, 2 threads': ('7b2da8f400f54a58', '0b98d7c722bb8509'),
    'log_softmax 7x15, 2 threads': ('d2802986372e4e8a', 'c124a05ea9bdf7db'),
    'softmax grad 7x15, 2 threads': ('2dbc293312bc1fef', 'd7097365ce8b1483'),
    'log_softmax grad 7x15, 2 threads': ('5999a9a1ad860ab5', 'b6ac35922230e557'),
    'softmax 200x15, 2 threads': ('867611e3c98ba1e4', 'cf69b7764f0bb450'),
    'log_softmax 200x15, 2 threads': ('36a981aa8cf11c41', '3469168b2cf61202'),
    'softmax grad 200x15, 2 threads': ('2e2ddfe2fd729573', 'a47b409432d27bc8'),
    'log_softmax grad 200x15, 2 threads': ('d0577a7ae2052c36', '311e3bb25ac239d0'),
    'softmax 1x16, 2 threads': ('3b34fd814654dde2', '3b34fd814654dde2'),
    'log_softmax 1x16, 2 threads': ('3dc44b78258976a7', '3dc44b78258976a7'),
    'softmax grad 1x16, 2 threads': ('129fac7853a61279', '129fac7853a61279'),
    'log_softmax grad 1x16, 2 threads': ('f781d292aa8e4eaa', 'f781d292aa8e4eaa'),
    'softmax 7x16, 2 threads': ('6d5b4b2808663866', '6d5b4b2808663866'),
    'log_softmax 7x16, 2 threads': ('7b81fa59d2bc1546', '7b81fa59d2bc1546'),
    'softmax grad 7x16, 2 threads': ('2d288ad9a5be17be', '2d288ad9a5be17be'),
    'log_softmax grad 7x16, 2 threads': ('ac25c049225e834c', 'ac25c049225e834c'),
    'softmax 200x16, 2 threads': ('f4c13eaea6aaa53b', 'f4c13eaea6aaa53b'),
    'log_softmax 200x16, 2 threads': ('c33c40c36b14f961', 'c33c40c36b14f961'),
    'softmax grad 200x16, 2 threads': ('8a94de03f6b933f7', '8a94de03f6b933f7'),
    'log_softmax grad 200x16, 2 threads': ('5cbd0f30143bec0e', '5cbd0f30143bec0e'),
    'softmax 1x17, 2 threads': ('0d16c6f262407c9e', '0d16c6f262407c9e'),
    'log_softmax 1x17, 2 threads': ('2c8236a07c7db317', '2c8236a07c7db317'),
    'softmax grad 1x17, 2 threads': ('33726bb25ef51c76', '368a294997fbef6b'),
    'log_softmax grad 1x17, 2 threads': ('3344b8c61a7eecd5', '3344b8c61a7eecd5'),
    'softmax 7x17, 2 threads': ('61dd9b3322ad7552', '61dd9b3322ad7552'),
    'log_softmax 7x17, 2 threads': ('8eb6496d16c0972d', '8eb6496d16c0972d'),
    'softmax grad 7x17, 2 threads': ('24adb003301a488b', 'aeba7c17de00112a'),
    'log_softmax grad 7x17, 2 threads': ('c0d5f92e7aff1672', 'a2eb3d6fe796c450'),
    'softmax 200x17, 2 threads': ('7b4e489858322990', '0be20732121ccf3f'),
    'log_softmax 200x17, 2 threads': ('af858415797d0f11', '8b61c0ef14f5d39e'),
    'softmax grad 200x17, 2 threads': ('15f429424393dc7b', '87b34dfff2aa60cb'),
    'log_softmax grad 200x17, 2 threads': ('9f0d59b03fc7c0aa', 'f156678596f63158'),
    'softmax 1x33, 2 threads': ('2dc453e9c49e106c', '2dc453e9c49e106c'),
    'log_softmax 1x33, 2 threads': ('d575f6a465e96a92', 'd575f6a465e96a92'),
    'softmax grad 1x33, 2 threads': ('906697180af5df44', '906697180af5df44'),
    'log_softmax grad 1x33, 2 threads': ('ab3a8fa8ccd3e501', 'ab3a8fa8ccd3e501'),
    'softmax 7x33, 2 threads': ('c0d9646a1e18c3c4', 'c0d9646a1e18c3c4'),
    'log_softmax 7x33, 2 threads': ('92000eff05c5625e', '92000eff05c5625e'),
    'softmax grad 7x33, 2 threads': ('20b7e5f46b8ee251', '9173d6b5cff30630'),
    'log_softmax grad 7x33, 2 threads': ('e3bd1833c7ec3bee', '5d8a6a3e6a630ced'),
    'softmax 200x33, 2 threads': ('a509bb4c10bb87b5', '73b6842c74ac4d5b'),
    'log_softmax 200x33, 2 threads': ('6868189c96614b61', 'a93708ee76fa2dd4'),
    'softmax grad 200x33, 2 threads': ('1bead7bb591f965a', 'eaedcc15be9dd09c'),
    'log_softmax grad 200x33, 2 threads': ('030b4b4cb65b69c0', 'ac9c49b5c84928b6'),
    'softmax 1x100, 2 threads': ('372f1395a409e255', '372f1395a409e255'),
    'log_softmax 1x100, 2 threads': ('5909ef8e7c2a0ead', '5909ef8e7c2a0ead'),
    'softmax grad 1x100, 2 threads': ('5258289f33263ea5', '5258289f33263ea5'),
    'log_softmax grad 1x100, 2 threads': ('4c958b927c213ae9', 'dbbcb53ef8f3340f'),
    'softmax 7x100, 2 threads': ('8c07a3f181856712', '8c07a3f181856712'),
    'log_softmax 7x100, 2 threads': ('2a82935b064ac380', '2a82935b064ac380'),
    'softmax grad 7x100, 2 threads': ('01b1fceaea3f53ef', '4402d66bc07f9f59'),
    'log_softmax grad 7x100, 2 threads': ('89db3acfc6ce1401', 'b52444c458726d7d'),
    'softmax 200x100, 2 threads': ('b004e8caf8a20297', 'b004e8caf8a20297'),
    'log_softmax 200x100, 2 threads': ('8d9bc1268365ea09', '8d9bc1268365ea09'),
    'softmax grad 200x100, 2 threads': ('c1d1e9a79e63af05', '0cf5cfe8be0e77ca'),
    'log_softmax grad 200x100, 2 threads': ('0dac0e2a082363ec', 'b95eafc6641c0b36'),
    'softmax 1x1000, 2 threads': ('329e36ce22fc2863', '238de43a2bbe2417'),
    'log_softmax 1x1000, 2 threads': ('332d05d34f8cb782', '332d05d34f8cb782'),
    'softmax grad 1x1000, 2 threads': ('c7f312cf4e1e26cc', 'b4bfb475f226908c'),
    'log_softmax grad 1x1000, 2 threads': ('d2bc088be38e5b5c', 'b2613c8ca326e595'),
    'softmax 7x1000, 2 threads': ('f7934cdaf3f57966', '6231877f0f08f654'),
    'log_softmax 7x1000, 2 threads': ('3b575e709dacb6f9', '3b575e709dacb6f9'),
    'softmax grad 7x1000, 2 threads': ('907f4c5225ffb2fc', '10d043a3ffa81dcb'),
    'log_softmax grad 7x1000, 2 threads': ('8a28ab3986eb7e80', '3ef7a037a59a10ca'),
    'softmax 200x1000, 2 threads': ('6e1ad8c43e75aa5c', 'ed1bb88f4176e3f2'),
    'log_softmax 200x1000, 2 threads': ('3bb87db6f1389569', '3bb87db6f1389569'),
    'softmax grad 200x1000, 2 threads': ('482659848747ede2', 'f584ee52a44c7ea0'),
    'log_softmax grad 200x1000, 2 threads': ('4ec4563ab0eee282', '9c511e28f92862eb'),
    'softmax of a transposed view, 2 threads': ('02cccd457a16b2b8', '02cccd457a16b2b8'),
    'softmax dim 1 of (4, 5, 6, 7), 2 threads': ('736474e95ca9b590', '978d5bdcdfa1a8f2'),
    'log_softmax dim 1 of (4, 5, 6, 7), 2 threads': ('28871cde70bd3473', '28871cde70bd3473'),
    'softmax dim 0 of (30, 17), 2 threads': ('7e169feed4071d06', '952004c8d771296c'),
    'log_softmax dim 0 of (30, 17), 2 threads': ('4ad7ba9406238075', '4ad7ba9406238075'),
    'softmax dim 1 of (3, 50, 40), 2 threads': ('dd264e8c1eb31edd', '626a3d2302a76711'),
    'log_softmax dim 1 of (3, 50, 40), 2 threads': ('9a84ecff2b77cd9a', '9a84ecff2b77cd9a'),
    'softmax dim 0 of (7, 3000), 2 threads': ('0fa0f2376299a3d2', '0fa0f2376299a3d2'),
    'log_softmax dim 0 of (7, 3000), 2 threads': ('693e18f6be4bf1ba', '693e18f6be4bf1ba'),
    'cross_entropy of a 4-d input, 2 threads': ('e2e732c187701ba0', 'e2e732c187701ba0'),
    'softmax of large and infinite values, 2 threads': ('2f164f6178c83c9f', '2f164f6178c83c9f'),
    'log_softmax of large and infinite values, 2 threads': ('322f3d835db92210', '322f3d835db92210'),
    'sigmoid 31, 2 threads': ('b7b9a1dabdee252b', '4129022bb0206d9b'),
    'sigmoid_ 31, 2 threads': ('b7b9a1dabdee252b', '4129022bb0206d9b'),
    'sigmoid 32, 2 threads': ('5c5134f81a517997', '5c5134f81a517997'),
    'sigmoid_ 32, 2 threads': ('5c5134f81a517997', '5c5134f81a517997'),
    'sigmoid 33, 2 threads': ('1b7743042a0b970f', '1b7743042a0b970f'),
    'sigmoid_ 33, 2 threads': ('1b7743042a0b970f', '1b7743042a0b970f'),
    'sigmoid 100, 2 threads': ('7a4f20769a443cf9', '7a4f20769a443cf9'),
    'sigmoid_ 100, 2 threads': ('7a4f20769a443cf9', '7a4f20769a443cf9'),
    'sigmoid 40000, 2 threads': ('f4ad6097170d5e0d', 'f4ad6097170d5e0d'),
    'sigmoid_ 40000, 2 threads': ('f4ad6097170d5e0d', 'f4ad6097170d5e0d'),
    'sigmoid 100003, 2 threads': ('cfdf1eb96a7f00bc', 'cfdf1eb96a7f00bc'),
    'sigmoid_ 100003, 2 threads': ('cfdf1eb96a7f00bc', 'cfdf1eb96a7f00bc'),
    'sigmoid of a transposed view, 2 threads': ('548be2c0b1576a86', '548be2c0b1576a86'),
    'sigmoid of row-sliced columns, 2 threads': ('d0ca0143ed91081f', 'd0ca0143ed91081f'),
    'sigmoid of every other column, 2 threads': ('f2bcca3c6ce73b23', 'f2bcca3c6ce73b23'),
    'sigmoid grad, 2 threads': ('6e642d985c3027f8', '6e642d985c3027f8'),
    'cross_entropy mean 1x5, 2 threads': ('a7a13701e018c131', 'a7a13701e018c131'),
    'cross_entropy grad mean 1x5, 2 threads': ('697960261f736210', '697960261f736210'),
    'cross_entropy sum 1x5, 2 threads': ('a7a13701e018c131', 'a7a13701e018c131'),
    'cross_entropy grad sum 1x5, 2 threads': ('697960261f736210', '697960261f736210'),
    'cross_entropy weighted mean 1x5, 2 threads': ('a7a13701e018c131', 'a7a13701e018c131'),
    'cross_entropy grad weighted mean 1x5, 2 threads': ('697960261f736210', '697960261f736210'),
    'cross_entropy weighted sum 1x5, 2 threads': ('900d190e0acb0195', '900d190e0acb0195'),
    'cross_entropy grad weighted sum 1x5, 2 threads': ('ad52ea07e8c39ff4', 'ad52ea07e8c39ff4'),
    'cross_entropy ignored 1x5, 2 threads': ('220f6486a6464704', '220f6486a6464704'),
    'cross_entropy grad ignored 1x5, 2 threads': ('de47c9b27eb8d300', 'de47c9b27eb8d300'),
    'cross_entropy weighted ignored 1x5, 2 threads': ('220f6486a6464704', '220f6486a6464704'),
    'cross_entropy grad weighted ignored 1x5, 2 threads': ('de47c9b27eb8d300', 'de47c9b27eb8d300'),
    'cross_entropy mean 17x10, 2 threads': ('a0bece07acd5eb23', 'a0bece07acd5eb23'),
    'cross_entropy grad mean 17x10, 2 threads': ('4e1d21d6808c9342', 'f0c86d063260a8e8'),
    'cross_entropy sum 17x10, 2 threads': ('a8f57eaffc6d40db', 'a8f57eaffc6d40db'),
    'cross_entropy grad sum 17x10, 2 threads': ('f4679c35dddcfedb', '9765dc683595c442'),
    'cross_entropy weighted mean 17x10, 2 threads': ('54cee2e21d27065a', '54cee2e21d27065a'),
    'cross_entropy grad weighted mean 17x10, 2 threads': ('fd40320d6958d432', 'b4018bb5f551dcba'),
    'cross_entropy weighted sum 17x10, 2 threads': ('112b695eebb82e73', '112b695eebb82e73'),
    'cross_entropy grad weighted sum 17x10, 2 threads': ('892a8bc88b1ab12d', 'bbcf54cae6f19bb6'),
    'cross_entropy ignored 17x10, 2 threads': ('ce71bd840f740b9e', 'ce71bd840f740b9e'),
    'cross_entropy grad ignored 17x10, 2 threads': ('9baa48cb9b7a0f72', '99fd17a931d65021'),
    'cross_entropy weighted ignored 17x10, 2 threads': ('75f45d94c7103c7e', '75f45d94c7103c7e'),
    'cross_entropy grad weighted ignored 17x10, 2 threads': ('75d326a7219ed52a', 'd3b91d6217051b80'),
    'cross_entropy mean 64x27, 2 threads': ('138979f860bf98b5', '138979f860bf98b5'),
    'cross_entropy grad mean 64x27, 2 threads': ('c199b62d0c7da516', '57939a487f988d0c'),
    'cross_entropy sum 64x27, 2 threads': ('89e3bdf4a7349833', '89e3bdf4a7349833'),
    'cross_entropy grad sum 64x27, 2 threads': ('ac4959bd52a89d97', '8fa6bb521e60f1f9'),
    'cross_entropy weighted mean 64x27, 2 threads': ('5d66febf8b7b89cd', '5d66febf8b7b89cd'),
    'cross_entropy grad weighted mean 64x27, 2 threads': ('fcd57f081cbcb476', 'aa5375578bfa1f19'),
    'cross_entropy weighted sum 64x27, 2 threads': ('e444c8eefda3c28c', 'e444c8eefda3c28c'),
    'cross_entropy grad weighted sum 64x27, 2 threads': ('39c89b905ab07988', 'f17244ed14ef12e9'),
    'cross_entropy ignored 64x27, 2 threads': ('2758213bca9c214f', '2758213bca9c214f'),
    'cross_entropy grad ignored 64x27, 2 threads': ('89548a222602eafc', '5e1a001517401a07'),
    'cross_entropy weighted ignored 64x27, 2 threads': ('1b4a7110015b51b1', '1b4a7110015b51b1'),
    'cross_entropy grad weighted ignored 64x27, 2 threads': ('1e7802329bdea74f', '83e5b2891c83927c'),
    'cross_entropy mean 300x3, 2 threads': ('12cd6bae0ba44073', '12cd6bae0ba44073'),
    'cross_entropy grad mean 300x3, 2 threads': ('f28a06581316fc2c', 'f28a06581316fc2c'),
    'cross_entropy sum 300x3, 2 threads': ('73ea20ec98e24b7c', '73ea20ec98e24b7c'),
    'cross_entropy grad sum 300x3, 2 threads': ('fcb2b55cbee9ecba', 'fcb2b55cbee9ecba'),
    'cross_entropy weighted mean 300x3, 2 threads': ('41184c2d636d953d', '41184c2d636d953d'),
    'cross_entropy grad weighted mean 300x3, 2 threads': ('18812c4ddbc13177', '18812c4ddbc13177'),
    'cross_entropy weighted sum 300x3, 2 threads': ('ff618c48cbe33995', 'ff618c48cbe33995'),
    'cross_entropy grad weighted sum 300x3, 2 threads': ('a94b8b04b3bf1143', 'a94b8b04b3bf1143'),
    'cross_entropy ignored 300x3, 2 threads': ('673d4db2bace58f2', '673d4db2bace58f2'),
    'cross_entropy grad ignored 300x3, 2 threads': ('785cbf9ce4da94c4', '785cbf9ce4da94c4'),
    'cross_entropy weighted ignored 300x3, 2 threads': ('d079dc19328d53d8', 'd079dc19328d53d8'),
    'cross_entropy grad weighted ignored 300x3, 2 threads': ('64b29e964c1d719c', '64b29e964c1d719c'),
    'binary_cross_entropy mean, 2 threads': ('99b9ddbf96298e52', '99b9ddbf96298e52'),
    'binary_cross_entropy grad mean, 2 threads': ('86dea0850b10db8f', '86dea0850b10db8f'),
    'binary_cross_entropy sum, 2 threads': ('a43f902cbe5d3b8c', 'a43f902cbe5d3b8c'),
    'binary_cross_entropy grad sum, 2 threads': ('70cd0f892997f895', '70cd0f892997f895'),
    'binary_cross_entropy weighted, 2 threads': ('fe564d1d36e61c48', 'fe564d1d36e61c48'),
    'binary_cross_entropy grad weighted, 2 threads': ('49203c7f140e31d5', '49203c7f140e31d5'),
    'bce_with_logits mean, 2 threads': ('d52072ddee4590c5', 'd52072ddee4590c5'),
    'bce_with_logits grad mean, 2 threads': ('e960af475293d6be', 'e960af475293d6be'),
    'bce_with_logits weighted, 2 threads': ('d08a4513c592c354', 'd08a4513c592c354'),
    'bce_with_logits grad weighted, 2 threads': ('1e119b4ae3e4de91', '1e119b4ae3e4de91'),
    'bce_with_logits pos_weight, 2 threads': ('af89d1f2471d7a12', 'af89d1f2471d7a12'),
    'bce_with_logits grad pos_weight, 2 threads': ('059fedcd1edac51e', '059fedcd1edac51e'),
}


def avx512():
    """Does this CPU run PyTorch's AVX-512 kernels (and leafgrad's 16-lane ones)?"""
    if os.environ.get("LEAFGRAD_NO_AVX512") == "1" or os.environ.get("ATEN_CPU_CAPABILITY") == "avx2":
        return False
    try:
        with open("/proc/cpuinfo") as f:
            flags = next(line for line in f if line.startswith("flags")).split()
    except (OSError, StopIteration):
        return False
    return all(f in flags for f in ("avx512f", "avx512vl", "avx512dq", "avx512bw"))


def data(n, scale=3.0):
    """n float32 values in [-scale, scale], from arithmetic alone (no RNG)."""
    i = torch.arange(n, dtype=torch.float64)
    return ((((i * 7919) % 1000) - 500) / 500 * scale).to(torch.float32)


def digest(t):
    return hashlib.sha256(t.detach().contiguous().numpy().tobytes()).hexdigest()[:16]


def softmax_cases():
    for n in [1, 3, 15, 16, 17, 33, 100, 1000]:
        for rows in [1, 7, 200]:
            x = data(rows * n).reshape(rows, n).requires_grad_()
            g = data(rows * n, 1.0).flip(0).reshape(rows, n)
            y, ly = torch.softmax(x, -1), torch.log_softmax(x, -1)
            yield f"softmax {rows}x{n}", y
            yield f"log_softmax {rows}x{n}", ly
            yield f"softmax grad {rows}x{n}", torch.autograd.grad(y, x, g)[0]
            yield f"log_softmax grad {rows}x{n}", torch.autograd.grad(ly, x, g)[0]
    x = data(4 * 5 * 33).reshape(4, 5, 33)
    yield "softmax of a transposed view", torch.softmax(x.transpose(1, 2), -1)
    for shape, dim in [((4, 5, 6, 7), 1), ((30, 17), 0), ((3, 50, 40), 1), ((7, 3000), 0)]:
        n = 1
        for s in shape:
            n *= s
        x = data(n).reshape(shape)
        yield f"softmax dim {dim} of {shape}", torch.softmax(x, dim)
        yield f"log_softmax dim {dim} of {shape}", torch.log_softmax(x, dim)
    x = data(4 * 5 * 6 * 7).reshape(4, 5, 6, 7)
    yield "cross_entropy of a 4-d input", F.cross_entropy(x, (torch.arange(4 * 6 * 7) % 5).reshape(4, 6, 7))
    special = torch.tensor([[0.0, float("-inf"), 1.0], [1e30, -1e30, 0.0], [-50.0, 50.0, 0.0]])
    yield "softmax of large and infinite values", torch.softmax(special, -1)
    yield "log_softmax of large and infinite values", torch.log_softmax(special, -1)


def sigmoid_cases():
    for n in [31, 32, 33, 100, 40000, 100003]:
        x = data(n, 8.0)
        yield f"sigmoid {n}", torch.sigmoid(x)
        y = x.clone()
        y.sigmoid_()
        yield f"sigmoid_ {n}", y
    x = data(300 * 200, 8.0).reshape(300, 200)
    yield "sigmoid of a transposed view", torch.sigmoid(x.t())
    yield "sigmoid of row-sliced columns", torch.sigmoid(x[:, :103])
    yield "sigmoid of every other column", torch.sigmoid(x[:, ::2])
    x = data(64 * 30, 4.0).reshape(64, 30).requires_grad_()
    g = data(64 * 30, 1.0).flip(0).reshape(64, 30)
    yield "sigmoid grad", torch.autograd.grad(torch.sigmoid(x), x, g)[0]


def loss_cases():
    for n, c in [(1, 5), (17, 10), (64, 27), (300, 3)]:
        x = data(n * c).reshape(n, c).requires_grad_()
        t = (torch.arange(n) * 7) % c
        t_ignored = t.clone()
        t_ignored[::3] = -100
        w = (data(c, 1.0) + 1.5).abs()
        for label, kw, target in [
            ("mean", {}, t),
            ("sum", {"reduction": "sum"}, t),
            ("weighted mean", {"weight": w}, t),
            ("weighted sum", {"weight": w, "reduction": "sum"}, t),
            ("ignored", {"ignore_index": -100}, t_ignored),
            ("weighted ignored", {"weight": w, "ignore_index": -100}, t_ignored),
        ]:
            loss = F.cross_entropy(x, target, **kw)
            yield f"cross_entropy {label} {n}x{c}", loss
            yield f"cross_entropy grad {label} {n}x{c}", torch.autograd.grad(loss, x)[0]
    p = torch.sigmoid(data(64 * 30).reshape(64, 30)).requires_grad_()
    z = data(64 * 30, 5.0).reshape(64, 30).requires_grad_()
    y = (data(64 * 30, 1.0).flip(0).reshape(64, 30) + 1) / 2
    w, pw = data(30, 1.0).abs(), data(30, 1.0).abs() * 3
    for label, kw in [("mean", {}), ("sum", {"reduction": "sum"}), ("weighted", {"weight": w})]:
        loss = F.binary_cross_entropy(p, y, **kw)
        yield f"binary_cross_entropy {label}", loss
        yield f"binary_cross_entropy grad {label}", torch.autograd.grad(loss, p)[0]
    for label, kw in [("mean", {}), ("weighted", {"weight": w}), ("pos_weight", {"pos_weight": pw})]:
        loss = F.binary_cross_entropy_with_logits(z, y, **kw)
        yield f"bce_with_logits {label}", loss
        yield f"bce_with_logits grad {label}", torch.autograd.grad(loss, z)[0]


def all_cases():
    before = torch.get_num_threads()
    try:
        for threads in [1, 2]:
            torch.set_num_threads(threads)
            for gen in (softmax_cases, sigmoid_cases, loss_cases):
                for name, t in gen():
                    yield f"{name}, {threads} threads", t
    finally:
        torch.set_num_threads(before)


def test_every_case_matches_pytorchs_bits():
    lane = 0 if avx512() else 1
    got = {name: digest(t) for name, t in all_cases()}
    assert set(got) == set(RECORDED)
    wrong = [name for name in got if got[name] != RECORDED[name][lane]]
    assert wrong == []


def test_a_cross_entropy_whose_targets_are_all_ignored_has_zero_gradients():
    # its mean divides by a total weight of 0: the loss is NaN, the gradient 0 (not 0 · inf)
    x = torch.ones(2, 3, requires_grad=True)
    loss = F.cross_entropy(x, torch.tensor([-100, -100]))
    loss.backward()
    assert loss.isnan().item()
    assert x.grad.tolist() == [[0.0] * 3] * 2


if __name__ == "__main__":
    for name, t in all_cases():
        print(f"{name!r}: {digest(t)!r},")
