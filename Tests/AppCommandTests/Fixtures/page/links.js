// tel:, sms: and mailto: links in the app's page are handed to the system (xdg-open), in order.
for (const href of ['tel:+4930123456', 'sms:+4930123456?body=hi', 'mailto:someone@example.com?subject=Hi']) {
  const link = document.createElement('a');
  link.href = href;
  link.textContent = href;
  document.body.append(link);
  link.click();
}
return { location: location.href };
