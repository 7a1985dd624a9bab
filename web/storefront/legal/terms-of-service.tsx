export function TermsOfService() {
  return (
    <>
      <p>
        These terms apply when you use the Stillwater website or buy from us. By using the site or placing an order, you
        agree to them, so please read them first.
      </p>

      <h2>Who we are</h2>
      <p>
        Stillwater is a small online shop selling calming home and desk goods, such as tabletop fountains, lighting,
        aromatherapy, wellness items, decor and gifts, to customers in the United States. In these terms, “we”, “us” and
        “our” mean Stillwater, and “you” means the person using the site or placing an order. You can reach us at{' '}
        <a href="mailto:support@stillwater.shop">support@stillwater.shop</a>.
      </p>

      <h2>Using the site</h2>
      <p>
        You may browse and shop for your own personal use. Please do not misuse the site, for example by trying to break
        into our systems, interfering with how it works, scraping it with automated tools, placing fraudulent orders or
        using it for anything unlawful. We may block access if we reasonably believe the site is being misused.
      </p>

      <h2>Accounts</h2>
      <p>
        Accounts are optional. If you create one, please give accurate details, keep your password private and tell us
        promptly if you think someone else has used it. You can ask us to close your account at any time, and we may
        close accounts used to break these terms.
      </p>

      <h2>Orders and acceptance</h2>
      <p>
        When you place an order, you are offering to buy the items in your cart. After checkout we send an order
        confirmation email; this confirms we have received your order. A contract is formed when we accept the order and
        pass it to our supplier for fulfilment. We may decline or cancel an order, for example if an item is no longer
        available, the price was shown in error or we suspect fraud. If we cancel after you have paid, we will refund
        you in full.
      </p>

      <h2>Prices and errors</h2>
      <p>
        All prices are in US dollars (USD). You pay the price shown at checkout, plus any shipping costs and taxes shown
        before you pay. We try hard to keep prices and descriptions accurate, but mistakes happen. If an item you
        ordered was clearly mispriced, we will contact you and you can either confirm the order at the correct price or
        cancel it for a full refund.
      </p>

      <h2>Payment</h2>
      <p>
        Card payments are processed securely by Stripe. Your card details go directly to Stripe and are never stored on
        our servers. Payment is taken when you place your order. By paying, you confirm you are authorised to use the
        payment method.
      </p>

      <h2>Discount codes</h2>
      <ul>
        <li>Only one discount code can be used per order unless we say otherwise.</li>
        <li>Single-use codes can be used only once, and each customer may use a given promotion only once.</li>
        <li>Codes may have an expiry date, a minimum spend or apply only to certain products.</li>
        <li>Codes have no cash value and cannot be exchanged for cash, credit or refunds.</li>
        <li>We may refuse or cancel codes that have been shared publicly without our permission or used unfairly.</li>
      </ul>
      <p>If you return items bought with a discount, the refund is based on the amount you actually paid.</p>

      <h2>Shipping and delivery</h2>
      <p>
        Our products are shipped directly to you by suppliers on marketplaces such as AliExpress. Because items travel
        from the supplier’s warehouse, delivery usually takes around 7 to 15 business days after your order is
        dispatched. Delivery times are estimates, not guarantees, and may be longer during holidays or because of
        customs or carrier delays. If you order several items, they may arrive in separate parcels.
      </p>
      <p>
        Please check your shipping address carefully, as a parcel cannot always be redirected once sent. If your order
        has not arrived well after the estimated window, contact us; if the parcel is lost, we will send a replacement
        or refund you.
      </p>

      <h2>Returns and refunds</h2>
      <p>
        Our <a href="/returns">Returns Policy</a> explains the full process. In summary:
      </p>
      <ul>
        <li>You can return most items within 30 days of delivery for a full refund.</li>
        <li>Contact us to start a return. Once we send you a return label, please ship the item within 14 days.</li>
        <li>We inspect returned items and issue your refund within 5 business days of inspection.</li>
        <li>Gift cards and digital downloads cannot be returned.</li>
        <li>If the return is because of our error or a defective item, we also refund your original shipping cost.</li>
      </ul>
      <p>These terms do not affect any rights you have under the consumer protection laws that apply to you.</p>

      <h2>Product information and images</h2>
      <p>
        We describe our products as accurately as we can. Photos and illustrations are there to help you choose, but
        colors, finishes and sizes may differ slightly from what you see on screen. Wellness and aromatherapy products
        are for general comfort and relaxation; they are not medical devices and are not meant to diagnose or treat any
        condition. Please follow any safety instructions that come with a product.
      </p>

      <h2>Reviews you post</h2>
      <p>
        You are welcome to review products you have bought. Reviews must be honest and based on your own experience. Do
        not post anything abusive, hateful, misleading, unlawful or that includes someone else’s personal information,
        and do not post advertising or links to other sites.
      </p>
      <p>
        You keep ownership of your review, but by posting it you give us a free, non-exclusive, ongoing licence to
        display and reproduce it on our site and in our marketing, and to correct obvious typos without changing its
        meaning. We moderate reviews and may decline or remove any that break these rules, but we do not remove reviews
        just because they are negative.
      </p>

      <h2>Intellectual property</h2>
      <p>
        The site’s design, text, logos, photos and other content belong to Stillwater or its licensors. You may view and
        print pages for personal use, but may not copy or republish our content commercially without our written
        permission.
      </p>

      <h2>Limitation of liability</h2>
      <p>
        We provide the site as it is and cannot promise it will always be available or free of errors. To the extent the
        law allows, we are not liable for indirect or consequential losses, such as lost profits or lost data, and our
        total liability for any order is limited to the amount you paid for that order.
      </p>
      <p>
        Nothing in these terms limits our liability where it would be unlawful to do so, including for injury caused by
        our negligence or for fraud, and nothing here removes rights you have as a consumer that cannot be waived.
      </p>

      <h2>Governing law</h2>
      <p>
        These terms are governed by the laws of the State in which Stillwater is registered, and by applicable United
        States federal law. If a dispute arises, please contact us first; most problems can be solved quickly by email.
      </p>

      <h2>Changes to these terms</h2>
      <p>
        We may update these terms from time to time. The version in force when you place an order applies to that order.
        When we make changes, we will update the “Last updated” date at the top of this page.
      </p>

      <h2>Contact us</h2>
      <p>
        If you have a question about these terms or an order, email{' '}
        <a href="mailto:support@stillwater.shop">support@stillwater.shop</a>.
      </p>
    </>
  );
}
